/**
 * Building blocks for the request schemas. Every file in schemas/ exports `events`:
 * a map from validator name to event schema; scripts/build-schemas.ts compiles each one
 * to standalone code in schemas/generated/<name>.ts, imported by the handlers.
 */
export type Schema = Record<string, unknown>;

export interface EventParts {
  body?: Schema;
  path?: Record<string, Schema>;
  query?: Record<string, Schema>;
}

const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

/** The API Gateway event as the validator sees it: body, path and query parameters. */
export const event = ({ body, path, query }: EventParts): Schema => {
  const required: string[] = [];
  const properties: Record<string, Schema> = {};
  if (body) {
    required.push('body');
    properties.body = body;
  }
  if (path) {
    required.push('pathParameters');
    properties.pathParameters = object(path, Object.keys(path));
  }
  if (query) {
    // absent query strings arrive as null
    properties.queryStringParameters = { anyOf: [{ type: 'null' }, object(query, [])] };
  }
  return { type: 'object', required, properties };
};

/** A positive integer id as it arrives in a path: digits only, no sign, no leading zero. */
export const integerIdParam: Schema = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,14}$',
  description: 'a positive integer',
};

/** One line of text: no control character at all (C0, DEL, C1), so none reaches a key, a log line or a mail header. */
export const SINGLE_LINE = '^\\P{Cc}*$';
/** Free text may break lines and use tabs; other control characters are refused. */
const MULTI_LINE = '^(?:\\P{Cc}|[\\t\\n\\r])*$';

/** Names and ids are bounded (DESIGN D12) and single-line. */
export const name = (maxLength = 256): Schema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  pattern: SINGLE_LINE,
  description: `1 to ${maxLength} characters without control characters`,
});
export const description: Schema = {
  type: 'string',
  maxLength: 2048,
  pattern: MULTI_LINE,
  description: 'at most 2048 characters; no control characters other than tab and line breaks',
};
/** A description that ends up in a mail subject (watchers): one line. */
export const singleLineDescription: Schema = {
  type: 'string',
  maxLength: 2048,
  pattern: SINGLE_LINE,
  description: 'at most 2048 characters on one line (no control characters)',
};

/** One documented answer of a route; `schema` describes its JSON body. */
export interface AnswerDoc {
  description: string;
  schema?: Schema;
}

/**
 * What the OpenAPI document says about a route (scripts/openapi.ts), keyed by function name in
 * each schemas/<area>.ts `docs` export. The request side comes from the route's event schema;
 * 403 (API key), 500 and, for routes with a body, 413/415 are added for every route.
 */
export interface RouteDoc {
  summary: string;
  /** Routes that also need `Authorization: Bearer <token>` (account administration). */
  bearer?: boolean;
  answers: Record<number, AnswerDoc>;
}

/** The JSON error body every failure uses. */
export const errorBody: Schema = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

export const error = (description: string): AnswerDoc => ({ description, schema: errorBody });
export const text = (description: string): AnswerDoc => ({ description, schema: { type: 'string' } });
