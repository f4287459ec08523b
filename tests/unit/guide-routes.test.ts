import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/** docs/guide/routes.md lists every route of docs/openapi.json, with its permission and summary, and no other. */
interface Operation {
  operationId?: string;
  summary?: string;
  'x-permission'?: string;
}
const openapi = JSON.parse(readFileSync(join(root, 'docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const documented = Object.entries(openapi.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => typeof operation === 'object' && operation.operationId)
      .map(([method, operation]) => `${method.toUpperCase()} ${path} | ${operation['x-permission'] ?? '–'} | ${operation.summary ?? ''}`),
  )
  .sort();

describe('docs/guide/routes.md', () => {
  it('lists exactly the routes of docs/openapi.json, each with its permission and summary', () => {
    const rows = [...readFileSync(join(root, 'docs/guide/routes.md'), 'utf8').matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+) \| (.*) \|$/gm)]
      .map(([, method, path, permission, summary]) => `${method} ${path} | ${permission!.trim()} | ${summary!.replace(/\\\|/g, '|')}`)
      .sort();
    expect(documented.length).toBeGreaterThan(50);
    expect(rows).toEqual(documented);
  });
});
