// The one expression builder: `#name` and `:value` placeholders; updates as data (`Change`) with their own (`#u0`, `:u0`).
export type Item = Record<string, unknown>;

export interface Expr {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** An expression with its values (`{ role }` is `:role`) and any names that are not their own. */
export const expr = (expression: string, values: Record<string, unknown> = {}, names: Record<string, string> = {}): Expr => ({ expression, values, names });

const asExpr = (e: Expr | string): Expr => (typeof e === 'string' ? { expression: e } : e);

export const atVersion = (version: number): Expr => expr('#version = :version', { version });

/** The terms that are given, joined by AND (undefined when none is). */
export const and = (...terms: (Expr | string | undefined)[]): Expr | undefined => {
  const given = terms.filter((t): t is Expr | string => t !== undefined && t !== '').map(asExpr);
  if (given.length === 0) return undefined;
  return {
    expression: given.map((t) => t.expression).join(' AND '),
    names: Object.assign({}, ...given.map((t) => t.names)),
    values: Object.assign({}, ...given.map((t) => t.values)),
  };
};

/** Each attribute equal to its value (`#f0 = :f0 AND …`; undefined values left out), or undefined when none is given. */
export const equal = (fields: Record<string, unknown>): Expr | undefined =>
  and(...Object.entries(fields).flatMap(([field, value], i) => (value === undefined ? [] : [expr(`#f${i} = :f${i}`, { [`f${i}`]: value }, { [`#f${i}`]: field })])));

/** The SDK fields of a request's expressions (`{ ConditionExpression: ..., FilterExpression: ... }`), names read off the expressions. */
export const compile = (parts: Record<string, Expr | string | undefined>): Item => {
  const fields: Item = {};
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const [field, part] of Object.entries(parts)) {
    if (part === undefined) continue;
    const e = asExpr(part);
    fields[field] = e.expression;
    for (const [placeholder] of e.expression.matchAll(/#[A-Za-z_]\w*/g)) names[placeholder] = placeholder.slice(1);
    Object.assign(names, e.names);
    for (const [name, value] of Object.entries(e.values ?? {})) values[name.startsWith(':') ? name : `:${name}`] = value;
  }
  if (Object.keys(names).length) fields.ExpressionAttributeNames = names;
  if (Object.keys(values).length) fields.ExpressionAttributeValues = values;
  return fields;
};

/** What one UpdateItem changes: values to SET (undefined = REMOVE), names to REMOVE, lists to append to, numbers to add, values set only where absent. */
export interface Change {
  set?: Item;
  remove?: readonly string[];
  append?: Record<string, unknown[]>;
  /** `field = field + n`: the field must exist. */
  increment?: Record<string, number>;
  /** `field = if_not_exists(field, 0) + n`. */
  count?: Record<string, number>;
  /** `field = if_not_exists(field, value)`. */
  init?: Item;
  /** `ADD`: to a number (absent: 0), or members to a set. */
  add?: Item;
  /** `DELETE`: members from a set. */
  delete?: Item;
}

/** The UpdateExpression of a change: every name and value a placeholder (`#u0`, `:u0`, ...). */
export const updateOf = ({ set = {}, remove = [], append = {}, increment = {}, count = {}, init = {}, add = {}, delete: take = {} }: Change): Expr => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let n = 0;
  // each field its own `#u<n>` and its value `:u<n>`, which `term` writes into the field's clause
  const terms = (fields: [string, unknown][], term: (name: string, value: string) => string) =>
    fields.map(([field, value]) => {
      names[`#u${n}`] = field;
      if (value !== undefined) values[`:u${n}`] = value;
      return term(`#u${n}`, `:u${n++}`);
    });
  if (Object.keys(count).length) values[':uzero'] = 0;
  if (Object.keys(append).length) values[':uempty'] = [];
  const setting = Object.entries(set);
  const sets = [
    ...terms(Object.entries(increment), (f, v) => `${f} = ${f} + ${v}`),
    ...terms(Object.entries(count), (f, v) => `${f} = if_not_exists(${f}, :uzero) + ${v}`),
    ...terms(Object.entries(init), (f, v) => `${f} = if_not_exists(${f}, ${v})`),
    ...terms(setting.filter(([, value]) => value !== undefined), (f, v) => `${f} = ${v}`),
    ...terms(Object.entries(append), (f, v) => `${f} = list_append(if_not_exists(${f}, :uempty), ${v})`),
  ];
  const unset = setting.filter(([, value]) => value === undefined).map(([field]) => field);
  const removes = terms([...remove, ...unset].map((field) => [field, undefined]), (f) => f);
  const adds = terms(Object.entries(add), (f, v) => `${f} ${v}`);
  const deletes = terms(Object.entries(take), (f, v) => `${f} ${v}`);
  const clauses: [string, string[]][] = [['SET', sets], ['REMOVE', removes], ['ADD', adds], ['DELETE', deletes]];
  const expression = clauses.flatMap(([verb, parts]) => (parts.length ? [`${verb} ${parts.join(', ')}`] : [])).join(' ');
  return { expression, names, values };
};

/** A partial update that also bumps `version` and `updatedAt`, so every write of a record is visible to optimistic-concurrency checks. */
export const patchOf = (patch: Item): Change => ({ increment: { version: 1 }, set: { updatedAt: new Date().toISOString(), ...patch } });

/** `#a, #b`: a ProjectionExpression of attributes (dotted paths allowed). */
export const projection = (attributes: readonly string[]): string => attributes.map((a) => a.split('.').map((part) => `#${part}`).join('.')).join(', ');
