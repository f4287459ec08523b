/**
 * Building blocks of the route contracts (schemas/<area>.ts): TypeBox schemas, which are plain
 * JSON Schema at run time (compiled by ajv, printed into OpenAPI) and static types for handlers.
 */
import { Type, type Static, type TSchema, type TProperties } from '@sinclair/typebox';
import { job, route, type Answer, type AnswerHeader, type FunctionFacts, type Method, type Requirement, type RouteContract } from '#lib/http/contract';
import { CSV_CONTENT_TYPE, NEXT_CURSOR_HEADER } from '#lib/shared/csv';

export { Type, type Static, type TSchema, type TProperties };

/** An object that refuses unknown properties (DESIGN D12). */
export const strict = <P extends TProperties>(properties: P, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** One of fixed values, as JSON Schema `enum` (error messages list them). */
export const oneOfValues = <const V extends readonly (string | number | boolean)[]>(values: V, options: Record<string, unknown> = {}) =>
  Type.Unsafe<V[number]>({ enum: [...values], ...options });

/** Exactly one of two shapes (JSON Schema `oneOf`). */
export const either = <A extends TSchema, B extends TSchema>(a: A, b: B) => Type.Unsafe<Static<A> | Static<B>>({ oneOf: [a, b] });

/** A positive integer id as it arrives in a path: digits only, no sign, no leading zero. */
export const integerIdParam = Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'a positive integer' });

/** A UUID as it arrives in a path (service and silence ids). */
export const uuidParam = (description: string) =>
  Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', description });

/**
 * One line of text: no control character at all (C0, DEL, C1), so none reaches a key, a log line
 * or a mail header; and none of the invisible characters that change how a name reads
 * (Unicode's default-ignorable code points: bidirectional controls, zero-width characters, soft
 * hyphens, fillers, tags...; and the line and paragraph separators), so that a
 * name shown is the name matched (docs/guide/rules/inventory.md "Invisible characters: stripped from vendor names, refused in user input"; vendor names lose them: lib/inventory/pure/names.ts).
 */
export const SINGLE_LINE = '^[^\\p{Cc}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029]*$';
/** What SINGLE_LINE refuses, for the rules' descriptions. */
export const SINGLE_LINE_RULE = 'without control, bidirectional-control, zero-width or other invisible characters';
/** Free text may break lines and use tabs; other control characters are refused. */
export const MULTI_LINE = '^(?:\\P{Cc}|[\\t\\n\\r])*$';

/** Names and ids are bounded (DESIGN D12) and single-line. */
export const name = (maxLength = 256) =>
  Type.String({ minLength: 1, maxLength, pattern: SINGLE_LINE, description: `1 to ${maxLength} characters ${SINGLE_LINE_RULE}` });
export const description = Type.String({
  maxLength: 2048,
  pattern: MULTI_LINE,
  description: 'at most 2048 characters; no control characters other than tab and line breaks',
});
/** A description that ends up in a mail subject (watchers): one line. */
export const singleLineDescription = Type.String({
  maxLength: 2048,
  pattern: SINGLE_LINE,
  description: `at most 2048 characters on one line, ${SINGLE_LINE_RULE}`,
});

/** The exact 403 body a signed-in caller gets (lib/access), beside API Gateway's own 403 for the key. */
export const forbidden = (description: string, message: string) => ({
  description: `${description}: {"message":"${message}"}`,
  schema: Type.Object({ message: Type.Unsafe<string>({ const: message }) }),
});
export const dateTime = Type.String({ format: 'date-time' });

/** `?limit` and `?cursor` of paginated lists. */
export const page = {
  limit: Type.String({ pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'an integer from 1 to 1000' }),
  cursor: Type.String({ minLength: 1, maxLength: 2048, description: 'a nextCursor this API answered' }),
};

/** The JSON error body every failure uses. */
export const errorBody = Type.Object({
  message: Type.String(),
  errors: Type.Optional(
    Type.Array(Type.Object({ field: Type.Optional(Type.String()), message: Type.String() })),
  ),
});

/** API Gateway's answer to a missing or wrong API key. */
export const forbiddenBody = Type.Object({ message: Type.Unsafe<'Forbidden'>({ const: 'Forbidden' }) });

export const ok = <S extends TSchema>(description: string, schema: S) => ({ description, schema });
export const error = (description: string) => ({ description, schema: errorBody });
export const text = (description: string) => ({ description, schema: Type.String() });
export const list = <S extends TSchema>(description: string, item: S) => ({ description, schema: Type.Array(item) });
export const count = (description = 'The count') => ({ description, schema: Type.Integer({ minimum: 0 }) });

/** One page of a paginated list: `{items, nextCursor}` (null on the last page). */
export const pageOf = <S extends TSchema>(item: S) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Unsafe<string | null>({ type: ['string', 'null'] }) });

/** A paged list route's request (`?limit`, `?cursor`) and answers: one page of `item`, 422 `refused` (a limit or cursor it refuses), and `others`. */
export const pagedList = <S extends TSchema, const R extends Record<number, Answer> = Record<never, never>>(item: S, refused: string, others: R = {} as R) => ({
  request: { query: page },
  responses: { 200: ok('One page {items, nextCursor} (limit default 100)', pageOf(item)), 422: error(refused), ...others },
});

/** 409 of a route that replaces or deletes a versioned record. */
export const changedMeanwhile = error('Changed or deleted by another request meanwhile; read it again and retry');

/** `?format` of an answer that can also be CSV (lib/shared/csv.ts). */
export const csvFormat = {
  format: oneOfValues(['json', 'csv'] as const, { description: 'json (default) or csv: the same answer as RFC 4180 CSV (text/csv)' }),
};

/** The header of a CSV page that names the next page (lib/shared/csv.ts csvAnswer); JSON pages carry it as nextCursor. */
export const nextCursorHeaders: Record<string, AnswerHeader> = {
  [NEXT_CURSOR_HEADER]: {
    description: 'With format=csv: the cursor of the next page, to send as ?cursor; absent on the last page and on JSON answers (their body has nextCursor)',
    schema: Type.String({ minLength: 1 }),
  },
};

/**
 * A 200 answer that may also be CSV (?format=csv): `rows` tells what a row is, `columns` the header
 * row's names (stable: clients address cells by them); `paged` when the CSV is one page, the cursor
 * of the next in the next-cursor header.
 */
export const orCsv = <A extends { description: string; schema: TSchema }>(answer: A, csv: { columns: readonly string[]; rows: string; paged: boolean }) => ({
  ...answer,
  description:
    `${answer.description}. With format=csv (${CSV_CONTENT_TYPE}): RFC 4180, a header row (${csv.columns.join(',')}), then ${csv.rows}; ` +
    'true/false for booleans, lists joined by spaces, absent values empty, cells a spreadsheet would run as a formula (= + - @ tab CR) prefixed with a quote' +
    (csv.paged ? `; one page (?limit, default 100, and ?cursor as in JSON), the cursor of the next in the ${NEXT_CURSOR_HEADER} header, absent on the last` : ''),
  media: { 'text/csv': Type.String() },
  ...(csv.paged ? { headers: nextCursorHeaders } : {}),
});

/** `[item]`, or with ?limit / ?cursor one page `{items, nextCursor}` (null on the last page). */
export const listOrPage = <S extends TSchema>(item: S, description: string) => ({
  description,
  schema: either(Type.Array(item), pageOf(item)),
});

/** What every route of an area (or of a group of its routes) shares: the permission it needs, the invalid-input status. */
type Shared = Pick<RouteContract, 'permission' | 'invalidStatus'>;
/** What a route states itself besides method, path and summary (a route may need another permission than its area). */
type Own = Pick<RouteContract, 'responses'> & Partial<Pick<RouteContract, 'request' | 'function' | 'idempotent' | 'permission' | 'audit' | 'apiKey'>>;

/** The area's shared facts, the route's own permission taking the place of the area's. */
const sharedWith = <S extends Shared, O extends Own>(shared: S, own: O) =>
  ({ ...shared, permission: own.permission ?? shared.permission }) as unknown as {
    invalidStatus: S['invalidStatus'];
    permission: O extends { permission: infer P extends Requirement } ? P : S['permission'];
  };

/**
 * Routes that share their caller and invalid-input status, stated once per area:
 * `const api = routesOf({ permission: 'channels:write', invalidStatus: 400 })`, then
 * `list: api('GET', 'channels', 'List the channels', { responses: { 200: … } })`.
 */
export const routesOf =
  <const S extends Shared>(shared: S) =>
  <const M extends Method, const O extends Own>(method: M, path: string, summary: string, own: O) =>
    route({ method, path, summary, ...own, ...sharedWith(shared, own) });

/**
 * Routes on one record (`…/{id}`): besides what `routesOf` shares, each takes the record's path
 * parameters and answers an invalid id (at the invalid-input status) and an unknown one (404).
 */
export const recordRoutesOf =
  <const S extends Shared, const P extends Record<string, TSchema>>(shared: S, record: { path: P; invalid: Answer; unknown: Answer }) =>
  <const M extends Method, const O extends Own>(method: M, path: string, summary: string, own: O) =>
    route({
      method,
      path,
      summary,
      ...own,
      ...sharedWith(shared, own),
      request: { path: record.path, ...own.request } as Omit<NonNullable<O['request']>, 'path'> & { path: P },
      responses: { [shared.invalidStatus]: record.invalid, 404: record.unknown, ...own.responses } as Record<S['invalidStatus'] | 404, Answer> &
        O['responses'],
    });

/**
 * An area's two route builders under one permission: `api` for its collection routes and
 * `onRecord` for the routes on one record (`record.path`), which answer `invalid` (its
 * invalid-input status) and `unknown` (404) as well: both error answers, described by `record`.
 */
export const areaRoutesOf = <const S extends Shared, const P extends Record<string, TSchema>>(shared: S, record: { path: P; invalid: string; unknown: string }) => {
  const answers = { path: record.path, invalid: error(record.invalid), unknown: error(record.unknown) };
  return { api: routesOf(shared), onRecord: recordRoutesOf(shared, answers), invalid: answers.invalid, unknown: answers.unknown };
};

/** The summary of every area's idempotent table-ensuring route. */
export const ENSURE_TABLE = 'Make sure the table exists (idempotent)';

/** A function run on a schedule (`rate(…)` or `cron(…)`), with its own Lambda facts. */
export const scheduled = (summary: string, schedule: string, facts: FunctionFacts) => job({ summary, ...facts, events: [{ schedule }] });

/**
 * Memory (MB) of the functions that hold the device inventory, from `npm run bench -- memory` at
 * 100k devices (bench/results/memory.md: peak RSS of the sync 645 MB, of the evaluator 410 MB),
 * with at least 1.5x headroom (tests/unit/deploy-settings.test.ts checks it against the figures).
 * Every other function keeps provider.memorySize.
 */
export const INVENTORY_MEMORY_MB = { sync: 1024, evaluator: 768 } as const;

/** A scheduled run over the whole inventory (the sync, the evaluator): up to five minutes, with its memory above. */
export const inventoryJob = (summary: string, schedule: string, kind: keyof typeof INVENTORY_MEMORY_MB, facts: FunctionFacts) =>
  scheduled(summary, schedule, { timeout: 300, memorySize: INVENTORY_MEMORY_MB[kind], ...facts });

/** The most entries a scope holds. */
export const MAX_SCOPE_ENTRIES = 50;

/** Where a principal acts (DESIGN §5): regions and (region, location) pairs; absent or empty: the whole fleet. */
export const accessScope = (what: string) =>
  Type.Array(strict({ region: name(), location: Type.Optional(name()) }), {
    maxItems: MAX_SCOPE_ENTRIES,
    description:
      `at most ${MAX_SCOPE_ENTRIES} entries, each a whole region ({"region"}) or one location of it ({"region", "location"}), where the ${what} acts; ` +
      'absent or empty: unscoped. A scoped principal reads and writes only inside its scope (elsewhere is 404)',
  });
/** A scope as answered. */
export const answeredScope = Type.Array(Type.Object({ region: Type.String(), location: Type.Optional(Type.String()) }), {
  description: 'its regions and (region, location) pairs; empty or absent (an unscoped user has no such field): unscoped',
});
