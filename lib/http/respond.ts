import type { APIGatewayProxyResult } from 'aws-lambda';
import { AnswerTooLarge, HttpError, InvalidCursor, type ErrorDetail } from '#lib/shared/errors';
import { storeFault, type StoreFault } from './store-faults';
import { describeSchemaErrors, summarize, type SchemaError } from '#lib/shared/validation';

export interface HttpResult {
  statusCode: number;
  /** Any JSON value: an object, an array, or a bare number or string where the spec says so. */
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The answer as Lambda returns it: the body as JSON, unless the handler answered text with a
 * content-type of its own (`text/csv`), which is sent as it is.
 */
export const json = ({ statusCode, body, headers }: HttpResult): APIGatewayProxyResult => {
  const type = headers?.['content-type'];
  if (type !== undefined && !type.startsWith('application/json') && typeof body === 'string') return { statusCode, headers: { ...headers }, body };
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
};

/** Lambda's limit for a synchronous answer: status, headers and body serialised together. */
export const MAX_ANSWER_BYTES = 6 * 1024 * 1024;

/**
 * Throws 413 (AnswerTooLarge) for an answer Lambda could not return, which API Gateway would
 * otherwise turn into a bare 502: an unpaged list grown past ~6 MB (e.g. GET /alarms in a storm).
 * Only answers whose body could be near the limit are measured exactly.
 */
export const withinAnswerLimit = (response: APIGatewayProxyResult, limit = MAX_ANSWER_BYTES): APIGatewayProxyResult => {
  if (response.body.length * 3 < limit) return response;
  const bytes = Buffer.byteLength(JSON.stringify(response));
  if (bytes > limit) throw new AnswerTooLarge(bytes, limit);
  return response;
};

/**
 * Schema errors described in one answer at most. A body within the size limit can hold 170,000
 * of them (85,000 empty records); listing all made an 11 MB answer, over Lambda's 6 MB response
 * limit (a 502 in AWS) and seconds of CPU to describe.
 */
const MAX_SCHEMA_ERRORS = 100;

interface MiddyError {
  statusCode?: number;
  message: string;
  cause?: { package?: string; data?: unknown };
}

const isMiddyError = (error: unknown): error is MiddyError =>
  error instanceof Error && typeof (error as MiddyError).cause === 'object' && !!(error as MiddyError).cause?.package;

const failure = (statusCode: number, message: string, details?: ErrorDetail[], headers?: Record<string, string>): HttpResult => ({
  statusCode,
  body: details?.length ? { message, errors: details } : { message },
  headers,
});

/**
 * Every failure becomes a JSON answer. Client mistakes get the endpoint's status with the
 * fields named; store back-pressure a 503 to retry; anything unknown a bare 500 (the caller
 * logs it). `known` says whether the error was expected, so the log level can follow.
 */
export const errorResult = (error: unknown, invalidStatus: number): { result: HttpResult; known: boolean; fault?: { fault: StoreFault; reason: string } } => {
  if (error instanceof InvalidCursor) {
    const details = [{ field: 'queryStringParameters.cursor', message: 'cursor must be a nextCursor this API answered for the same query' }];
    // 422 on every route: a forged or foreign cursor is a well-formed request the API cannot follow (docs/adr/0109-sealed-cursors.md)
    return { result: failure(422, error.message, details), known: true };
  }
  if (error instanceof HttpError) {
    const statusCode = error.statusCode ?? invalidStatus;
    const result =
      error.body !== undefined
        ? { statusCode, body: error.body, headers: error.headers }
        : failure(statusCode, error.message, error.details, error.headers);
    return { result, known: true };
  }
  if (isMiddyError(error)) {
    if (error.cause?.package === '@middy/validator') {
      const errors = (error.cause.data as SchemaError[] | undefined) ?? [];
      const details = describeSchemaErrors(errors.slice(0, MAX_SCHEMA_ERRORS));
      const unlisted = errors.length > MAX_SCHEMA_ERRORS ? `; ${errors.length - MAX_SCHEMA_ERRORS} further problems not listed` : '';
      return { result: failure(invalidStatus, summarize(details) + unlisted, details), known: true };
    }
    if (error.cause?.package === '@middy/http-json-body-parser') {
      if (error.message === 'Unsupported Media Type') {
        const contentType = typeof error.cause.data === 'string' ? error.cause.data : 'none';
        return { result: failure(415, `Content-Type must be application/json (got ${contentType})`), known: true };
      }
      return { result: failure(invalidStatus, 'Request body is not valid JSON'), known: true };
    }
  }
  const fault = storeFault(error);
  if (fault?.fault === 'busy') {
    return { result: failure(503, 'The service is busy; retry shortly', undefined, { 'retry-after': '1' }), known: true, fault };
  }
  if (fault?.fault === 'unavailable') {
    return { result: failure(503, 'The data store is unavailable; retry shortly', undefined, { 'retry-after': '5' }), known: true, fault };
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'ConditionalCheckFailedException' || name === 'TransactionConflictException') {
    return { result: failure(409, 'The record was changed by another request; retry'), known: true };
  }
  return { result: failure(500, 'Internal server error'), known: false };
};
