import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/**
 * Layers point one way (docs/architecture.md): functions -> lib/<domain> -> lib/db -> lib/store (entities, client),
 * with lib/adapters (AWS clients other than DynamoDB) beside lib/db, wired in by functions, and
 * the shared types (lib/<domain>/types.ts), errors, log, observability and helpers (lib/shared)
 * below them
 * all. Imports are read with the TypeScript parser; `import type` is allowed downwards and
 * from a domain's types into lib/db (types are erased at build).
 */
type Layer = 'function' | 'binding' | 'validator' | 'http' | 'domain' | 'adapter' | 'db' | 'store' | 'types' | 'shared' | 'contract';

const layerOf = (file: string): Layer | undefined => {
  if (file.startsWith('functions/')) return 'function';
  if (file.startsWith('generated/routes/')) return 'binding';
  if (file.startsWith('generated/validators/')) return 'validator';
  if (file.startsWith('schemas/')) return 'contract';
  if (file.startsWith('lib/http/')) return 'http';
  if (file.startsWith('lib/adapters/')) return 'adapter';
  if (file.startsWith('lib/db/')) return 'db';
  if (file.startsWith('lib/store/')) return 'store';
  if (file.startsWith('lib/shared/') || file.startsWith('lib/observability/') || file === 'lib/errors.ts' || file === 'lib/log.ts') return 'shared';
  if (/^lib\/[^/]+\/types\.ts$/.test(file)) return 'types';
  if (file.startsWith('lib/')) return 'domain';
  return undefined;
};

/** What each layer may import at run time; `import type` may also reach `typesOnly`. */
const allowed: Record<Layer, { values: Layer[]; typesOnly?: Layer[] }> = {
  function: { values: ['binding', 'validator', 'domain', 'adapter', 'db', 'store', 'types', 'shared', 'http'] },
  binding: { values: ['validator', 'http', 'domain', 'adapter'], typesOnly: ['contract'] },
  validator: { values: [], typesOnly: ['shared'] },
  contract: { values: ['contract', 'types', 'shared', 'domain', 'http'] },
  http: { values: ['http', 'shared'] },
  domain: { values: ['domain', 'db', 'store', 'types', 'shared'], typesOnly: ['http', 'adapter'] },
  adapter: { values: ['adapter', 'db', 'store', 'types', 'shared'], typesOnly: ['domain'] },
  db: { values: ['db', 'store', 'types', 'shared'], typesOnly: ['domain'] },
  store: { values: ['store', 'types', 'shared'], typesOnly: ['domain'] },
  types: { values: ['types', 'shared'], typesOnly: ['domain', 'db'] },
  shared: { values: ['shared'] },
};

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });

const resolve = (from: string, specifier: string): string | undefined => {
  const alias = /^#(lib|schemas|generated)\/(.*)$/.exec(specifier);
  const base = alias ? `${alias[1]}/${alias[2]}` : specifier.startsWith('.') ? relative(root, join(root, dirname(from), specifier)) : undefined;
  if (base === undefined) return undefined; // a package
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    try {
      if (statSync(join(root, candidate)).isFile()) return candidate;
    } catch {
      /* next candidate */
    }
  }
  return base;
};

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

const importsOf = (file: string): Import[] => {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node)
        ? (node.importClause?.isTypeOnly ?? false) ||
          (!!node.importClause?.namedBindings &&
            ts.isNamedImports(node.importClause.namedBindings) &&
            !node.importClause.name &&
            node.importClause.namedBindings.elements.length > 0 &&
            node.importClause.namedBindings.elements.every((element) => element.isTypeOnly))
        : node.isTypeOnly;
      const to = resolve(file, node.moduleSpecifier.text);
      if (to) found.push({ from: file, to, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      const to = argument && ts.isStringLiteral(argument) ? resolve(file, argument.text) : undefined;
      if (to) found.push({ from: file, to, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

const files = ['functions', 'lib', 'schemas'].flatMap(sources);
const imports = files.flatMap(importsOf);

/**
 * Imports against the direction that wait for work in flight on the same files (issue 14 rewrites
 * room aggregates); each is moved into its domain when that lands. Nothing may be added here.
 */
const PENDING = new Set<string>([]);
const PENDING_HTTP_NAMES = new Set<string>([]);
const breaches = (): string[] =>
  imports.flatMap(({ from, to, typeOnly }) => {
    const [a, b] = [layerOf(from), layerOf(to)];
    if (!a || !b) return [];
    const rule = allowed[a];
    const ok = rule.values.includes(b) || (typeOnly && (rule.typesOnly ?? []).includes(b)) || PENDING.has(`${from} -> ${to}`);
    return ok ? [] : [`${from} (${a}) imports ${to} (${b})${typeOnly ? ' [type]' : ''}`];
  });

describe('import direction', () => {
  it('reads the imports of every source file', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.some((i) => i.from.startsWith('lib/store/') && i.to === 'lib/store/client.ts')).toBe(true);
  });

  it('has every import point down the layers', () => {
    expect(breaches()).toEqual([]);
  });

  it('keeps AWS clients other than DynamoDB in lib/adapters', () => {
    const outside = files.filter((file) => {
      if (file.startsWith('lib/adapters/')) return false;
      const text = readFileSync(join(root, file), 'utf8');
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
      let found = false;
      const visit = (node: ts.Node) => {
        const specifier =
          (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text) ||
          (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]) && node.arguments[0].text);
        if (specifier && (specifier.startsWith('@aws-sdk/') || specifier.startsWith('@smithy/')) && !specifier.startsWith('@aws-sdk/client-dynamodb') && !specifier.startsWith('@aws-sdk/lib-dynamodb')) found = true;
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
    expect(outside).toEqual([]);
  });

  it('lets lib/db name no HTTP parameter', () => {
    const named = files.filter((file) => file.startsWith('lib/db/') && !PENDING_HTTP_NAMES.has(file)).filter((file) => {
      const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
      let found = false;
      const visit = (node: ts.Node) => {
        if (ts.isStringLiteralLike(node) && /^(queryStringParameters|pathParameters|body)(\.|$)/.test(node.text)) found = true;
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
    expect(named).toEqual([]);
  });

  it('keeps the pending list honest: each entry is still an import', () => {
    const present = new Set(imports.map(({ from, to }) => `${from} -> ${to}`));
    expect([...PENDING].filter((entry) => !present.has(entry))).toEqual([]);
  });

  it('fails on an import against the direction', () => {
    const layer = layerOf('lib/db/rooms.ts')!;
    expect(allowed[layer].values).not.toContain(layerOf('lib/devices/rollup.ts'));
    expect(allowed[layerOf('lib/alarms/evaluate.ts')!].values).not.toContain(layerOf('lib/adapters/ses.ts'));
  });
});
