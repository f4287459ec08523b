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
  responses?: Record<string, { description?: string }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The API key always, and the bearer token where the operation's security asks for it. */
const access = (operation: Operation) =>
  operation.security?.some((requirement) => 'bearer' in requirement)
    ? 'Needs the API key (x-api-key) and a bearer token from sign-in.'
    : 'Needs the API key (x-api-key).';

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
