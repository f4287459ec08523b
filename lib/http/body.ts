import jsonBodyParser from '@middy/http-json-body-parser';
import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { PayloadTooLarge } from '#lib/errors';

/** Largest request body accepted; API Gateway itself allows 10 MB. Stated in the README. */
export const MAX_BODY_BYTES = 256 * 1024;

const parser = jsonBodyParser();

/**
 * Lower-cases header names (API Gateway keeps the client's spelling), treats an absent or
 * empty body as "no body" so that body-less POSTs need no content type, bounds the size,
 * then lets @middy/http-json-body-parser check the content type and parse.
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
  const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
  if (bytes > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES);
  await parser.before?.(request);
};
