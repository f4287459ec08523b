import type { ErrorDetail } from '#lib/shared/errors';

/** The subset of an ajv error the formatter reads. */
export interface SchemaError {
  instancePath: string;
  /** where in the schema the failing keyword is: `#/properties/body/properties/name/maxLength` */
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** The schema holding the failing keyword (ajv's `verbose`), or only its `description` (withRules): it names the rule. */
  parentSchema?: { description?: unknown };
}

/** What ajv's standalone code is: a function that leaves the errors of its last call on itself. */
type AjvValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/**
 * A validator compiled without ajv's `verbose` (scripts/generate.ts), whose errors get the
 * `description` of the schema holding the failing keyword from `rules` (by that schema's path),
 * as `verbose` would give it in `parentSchema`.
 */
export const withRules = (validate: AjvValidator, rules: Record<string, string>): CompiledValidator => {
  const checked: CompiledValidator = (data) => {
    const valid = validate(data);
    checked.errors = validate.errors?.map((error) => {
      const rule = rules[error.schemaPath?.slice(0, error.schemaPath.lastIndexOf('/')) ?? ''];
      return rule === undefined ? error : { ...error, parentSchema: { description: rule } };
    });
    return valid;
  };
  return checked;
};

/** A validator compiled at build time by scripts/build-schemas.ts (ajv standalone code). */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

// "/body/operations/conditions/0/value" -> "body.operations.conditions[0].value"
const toField = (instancePath: string, child?: unknown): string => {
  const parts = instancePath.split('/').slice(1);
  if (child !== undefined) parts.push(String(child));
  return parts
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
};

const describe = (error: SchemaError): ErrorDetail => {
  const { keyword, params } = error;
  if (keyword === 'required') {
    const field = toField(error.instancePath, params.missingProperty);
    return { field, message: `${field} is required` };
  }
  if (keyword === 'additionalProperties') {
    const field = toField(error.instancePath, params.additionalProperty);
    return { field, message: `${field} is not an allowed property` };
  }
  const field = toField(error.instancePath) || 'request';
  const rule = error.parentSchema?.description;
  if (typeof rule === 'string' && keyword !== 'type') return { field, message: `${field} must be ${rule}` };
  if (keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return { field, message: `${field} must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` };
  }
  return { field, message: `${field} ${error.message ?? 'is invalid'}` };
};

/** Turns ajv errors into de-duplicated, client-readable details, most specific first. */
export const describeSchemaErrors = (errors: readonly SchemaError[] | null | undefined): ErrorDetail[] => {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors ?? []) {
    // anyOf/oneOf wrappers only repeat what their branches already said
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    // "must be null" only says that null was one alternative (an absent query string, deviceSN: null);
    // the other branch names the real problem
    if (error.keyword === 'type' && error.params.type === 'null') continue;
    const detail = describe(error);
    if (seen.has(detail.message)) continue;
    seen.add(detail.message);
    details.push(detail);
  }
  return details;
};

export const summarize = (details: readonly ErrorDetail[]): string => {
  const shown = details.slice(0, 5).map((d) => d.message);
  const more = details.length > shown.length ? ` (and ${details.length - shown.length} more)` : '';
  return `Invalid request: ${shown.join('; ')}${more}`;
};
