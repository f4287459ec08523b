import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Invalid, type ErrorDetail } from '#lib/shared/errors';
import { malformedStrings } from '#lib/shared/json';

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
