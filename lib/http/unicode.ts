import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Invalid, type ErrorDetail } from '#lib/errors';

/** A UTF-16 surrogate without its partner: JSON allows it (`"\ud800"`), Unicode text does not. */
const LONE_SURROGATE = /\p{Cs}/u;

const MAX_REPORTED = 20;

/** Fields (`body.a[0].b`, also object keys) holding strings that are not well-formed Unicode. */
export const malformedStrings = (value: unknown, field: string, found: string[] = []): string[] => {
  if (found.length >= MAX_REPORTED) return found;
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) found.push(field);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => malformedStrings(item, `${field}[${i}]`, found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) found.push(`${field} (a property name)`);
      else malformedStrings(item, `${field}.${key}`, found);
    }
  }
  return found;
};

/**
 * Refuses any string of the request that is not well-formed Unicode (lone surrogates), naming
 * each field, with the endpoint's invalid-input status. Such strings cannot become key parts
 * (`encodeURIComponent` throws) nor be stored faithfully, so no handler ever sees one.
 */
export const requireWellFormed = (event: APIGatewayProxyEvent): void => {
  const fields = [
    ...malformedStrings(event.body, 'body'),
    ...malformedStrings(event.pathParameters ?? {}, 'pathParameters'),
    ...malformedStrings(event.queryStringParameters ?? {}, 'queryStringParameters'),
  ];
  if (fields.length === 0) return;
  const details: ErrorDetail[] = fields.map((field) => ({ field, message: `${field} must be well-formed Unicode (no lone surrogates)` }));
  throw new Invalid(`Invalid request: ${details.map((d) => d.message).join('; ')}`, details);
};
