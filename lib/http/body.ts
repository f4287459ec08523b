import jsonBodyParser from '@middy/http-json-body-parser';
import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpError, PayloadTooLarge } from '#lib/shared/errors';
import { requireShallow } from '#lib/shared/json';

/** Largest request body accepted; API Gateway itself allows 10 MB. Stated in the README. */
export const MAX_BODY_BYTES = 256 * 1024;

const parser = jsonBodyParser();

/** The body of each request as it arrived, before parsing: a route whose caller signs the bytes (a vendor's webhook) checks them. */
const rawBodies = new WeakMap<object, string>();
export const rawBodyOf = (event: APIGatewayProxyEvent): string => rawBodies.get(event) ?? '';

/**
 * Media types are case-insensitive (RFC 9110 8.3.1), so `Application/JSON` is JSON; and JSON
 * is UTF-8 (RFC 8259 8.1), so a body declared in another charset is 415, not parsed as UTF-8.
 */
const checkMediaType = (headers: Record<string, string | undefined>): void => {
  const contentType = headers['content-type'];
  if (typeof contentType !== 'string') return;
  const normalized = contentType.toLowerCase();
  headers['content-type'] = normalized;
  const charset = /;\s*charset\s*=\s*"?([^;"\s]*)/.exec(normalized)?.[1];
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `Content-Type must be application/json in UTF-8 (got charset ${JSON.stringify(charset)})`);
  }
};

/**
 * Lower-cases header names (API Gateway keeps the client's spelling), treats an absent or
 * empty body as "no body" so that body-less POSTs need no content type, bounds the size and
 * the nesting (lib/shared/json.ts), then lets @middy/http-json-body-parser check the content type and parse.
 */
export const parseJsonBody = async (request: Request<APIGatewayProxyEvent>): Promise<void> => {
  const { event } = request;
  event.headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  // API Gateway always sends a string; serverless-offline hands some JSON bodies over
  // already decoded (false, 42). Re-encode those so they meet the same checks.
  const body: unknown = event.body;
  const raw = typeof body === 'string' || body === null || body === undefined ? body : JSON.stringify(body);
  event.body = raw ?? null;
  if (raw === null || raw === undefined || raw === '') {
    (event as { body: unknown }).body = undefined;
    return;
  }
  rawBodies.set(event, event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw);
  checkMediaType(event.headers);
  const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
  if (bytes > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
  await parser.before?.(request);
  // after the parser (its 415s first); JSON.parse itself does not recurse, what would walk the value does
  requireShallow(event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw, 'body');
};
