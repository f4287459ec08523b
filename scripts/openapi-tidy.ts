/**
 * What OpenAPI tools expect beyond a valid document (Redocly's lint, tests/unit/openapi-lint.test.ts):
 * a license, every operation tag declared globally with a description, a description on every
 * operation. Applied by scripts/openapi.ts to the document it builds; the descriptions are
 * derived from what the document already says (access, answers), so they never drift.
 */
type Json = Record<string, unknown>;

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Record<string, unknown>[];
  'x-permission'?: string;
  responses?: Record<string, { description?: string }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The API key always; the permission and when a bearer token is needed, by ACCESS_MODE (DESIGN §5). */
const access = (operation: Operation) => {
  const permission = operation['x-permission'];
  if (permission === 'public' || permission === undefined) return 'Needs the API key (x-api-key) only, in every access mode.';
  if (permission === 'signed-in') return 'Needs the API key (x-api-key) and a bearer token (a user or a service), in every access mode.';
  if (permission === 'admin') return 'Needs the API key (x-api-key) and a bearer token whose role holds the admin permission (unscoped).';
  return (
    `Needs the ${permission} permission: with ACCESS_MODE=user a bearer token whose role holds it; ` +
    'with ACCESS_MODE=key the API key alone acts with it, or a bearer token narrows to its principal.'
  );
};

const answers = (operation: Operation) =>
  Object.entries(operation.responses ?? {})
    .map(([status, answer]) => `${status} ${answer.description ?? ''}`.trim())
    .join('; ');

export const describeOperation = (operation: Operation): string => `${access(operation)} Answers: ${answers(operation)}.`;

/**
 * `describeTag` gives each tag (an area) its description, e.g. from the area's declaration file.
 */
export const tidyOpenApi = <T extends Json>(document: T, describeTag: (tag: string) => string): T => {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const tags = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      for (const tag of operation.tags ?? []) tags.add(tag);
      operation.description ??= describeOperation(operation);
    }
  }
  const info = { ...(document.info as Json), license: (document.info as Json | undefined)?.license ?? { name: 'Proprietary' } };
  const declared = [...tags].sort().map((name) => ({ name, description: describeTag(name) }));
  // keep the usual key order: info, servers, security, tags, paths, components
  const { openapi, info: _info, servers, security, paths: _paths, ...rest } = document;
  return { openapi, info, servers, security, tags: declared, paths: _paths, ...rest } as unknown as T;
};
