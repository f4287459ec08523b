import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/**
 * Layers point one way (docs/architecture.md): functions -> lib/<domain> -> lib/db -> lib/store (entities, client),
 * with lib/adapters (AWS clients other than DynamoDB) beside lib/db, wired in by functions, and
 * the shared types (lib/<domain>/types.ts), errors, log, observability and helpers (lib/shared)
 * below them all. Among the domains, the engine folders import each other one way only (ENGINES
 * below), and modules under `pure/` reach no I/O. Imports are read with the TypeScript parser;
 * `import type` is allowed downwards and from a domain's types into lib/db (types are erased at build).
 */
type Layer = 'function' | 'binding' | 'validator' | 'http' | 'domain' | 'adapter' | 'db' | 'store' | 'types' | 'shared' | 'contract';

const layerOf = (file: string): Layer | undefined => {
  if (file.startsWith('functions/')) return 'function';
  if (file.startsWith('generated/routes/')) return 'binding';
  if (file.startsWith('generated/validators/')) return 'validator';
  if (file.startsWith('schemas/')) return 'contract';
  if (/^lib\/[^/]+\/(.+\/)?repository(\.ts|\/)/.test(file) || ['lib/store/caps.ts', 'lib/store/leases.ts', 'lib/store/partition.ts', 'lib/http/idempotencyKeys.ts', 'lib/http/idempotencyStore.ts'].includes(file)) return 'db';
  if (file.startsWith('lib/http/')) return 'http';
  if (file.startsWith('lib/adapters/')) return 'adapter';
  if (/^lib\/[^/]+\/(.+\/)?entities\.ts$/.test(file)) return 'store';
  if (file.startsWith('lib/store/')) return 'store';
  if (file.startsWith('lib/shared/') || file.startsWith('lib/shared/') || file === 'lib/shared/errors.ts' || file === 'lib/shared/log.ts') return 'shared';
  if (/^lib\/[^/]+\/(.+\/)?types\.ts$/.test(file)) return 'types';
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
  db: { values: ['db', 'store', 'types', 'shared'], typesOnly: ['domain', 'http'] },
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
  /** The file imported (a package: its name). */
  to: string;
  typeOnly: boolean;
  /** A package, not a file of ours. */
  external?: boolean;
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
      found.push(to ? { from: file, to, typeOnly } : { from: file, to: node.moduleSpecifier.text, typeOnly, external: true });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) {
        const to = resolve(file, argument.text);
        found.push(to ? { from: file, to, typeOnly: false } : { from: file, to: argument.text, typeOnly: false, external: true });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

const files = ['functions', 'lib', 'schemas'].flatMap(sources);
const everything = files.flatMap(importsOf);
const imports = everything.filter((i) => !i.external);

/**
 * The engines (docs/architecture.md "Engines"): each in one folder, importing the others one way
 * only. An engine may import the engines it lists here and no other, values and types alike.
 */
const ENGINES = {
  'lib/alarms/engine': ['lib/notify', 'lib/rollups'],
  'lib/inventory': ['lib/rollups'],
  'lib/notify': ['lib/rollups'],
  'lib/rollups': [],
} as const satisfies Record<string, readonly string[]>;
type Engine = keyof typeof ENGINES;
const engineOf = (file: string): Engine | undefined => (Object.keys(ENGINES) as Engine[]).find((engine) => file.startsWith(`${engine}/`));
const engineBreaches = (list: readonly Import[]): string[] =>
  list.flatMap(({ from, to, typeOnly }) => {
    const [a, b] = [engineOf(from), engineOf(to)];
    if (!a || !b || a === b || (ENGINES[a] as readonly string[]).includes(b)) return [];
    return [`${from} (${a}) imports ${to} (${b})${typeOnly ? ' [type]' : ''}`];
  });

/**
 * What makes a module do I/O when it reaches it at run time: the store's client, an adapter, the
 * logger and metrics, and packages that talk to the outside. A module under a `pure/` folder
 * reaches none of them (docs/architecture.md "Pure and I/O modules").
 */
const IO_FILES = (file: string) => file === 'lib/store/client.ts' || file.startsWith('lib/adapters/') || ['lib/shared/log.ts', 'lib/shared/metrics.ts', 'lib/shared/tracing.ts'].includes(file);
const IO_PACKAGES = /^(@aws-sdk\/|@smithy\/|@aws-lambda-powertools\/|node:(dns|http|https|net|fs|child_process)(\/|$)|(dns|http|https|net|fs|child_process)$)/;
const valueImports = new Map<string, Import[]>();
for (const i of everything) if (!i.typeOnly) valueImports.set(i.from, [...(valueImports.get(i.from) ?? []), i]);
/** The I/O a file reaches through its value imports, as a chain of files ending in the I/O; undefined when none. */
const ioReached = (file: string, seen = new Set<string>()): string[] | undefined => {
  if (seen.has(file)) return undefined;
  seen.add(file);
  for (const i of valueImports.get(file) ?? []) {
    if (i.external ? IO_PACKAGES.test(i.to) : IO_FILES(i.to)) return [i.to];
    if (i.external) continue;
    const chain = ioReached(i.to, seen);
    if (chain) return [i.to, ...chain];
  }
  return undefined;
};
const isPure = (file: string) => /\/pure\/[^/]+\.ts$/.test(file);

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

  it('lets no repository name an HTTP parameter', () => {
    const named = files.filter((file) => layerOf(file) === 'db' && !PENDING_HTTP_NAMES.has(file)).filter((file) => {
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

  it('has every import between engine folders follow the documented direction', () => {
    expect(Object.keys(ENGINES).every((engine) => files.some((file) => file.startsWith(`${engine}/`)))).toBe(true);
    expect(engineBreaches(imports)).toEqual([]);
  });

  it('lets an engine use another domain only through its model: types and pure modules', () => {
    const breaches = imports.filter(({ from, to, typeOnly }) => {
      if (!engineOf(from) || engineOf(to) || typeOnly || layerOf(to) !== 'domain') return false;
      return ioReached(to) !== undefined;
    });
    expect(breaches.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it('keeps the modules of pure/ folders free of I/O', () => {
    const pure = files.filter(isPure);
    expect(pure.length).toBeGreaterThan(15);
    expect(pure.flatMap((file) => {
      const chain = ioReached(file);
      return chain ? [`${file} -> ${chain.join(' -> ')}`] : [];
    })).toEqual([]);
  });

  it('keeps the pending list honest: each entry is still an import', () => {
    const present = new Set(imports.map(({ from, to }) => `${from} -> ${to}`));
    expect([...PENDING].filter((entry) => !present.has(entry))).toEqual([]);
  });

  it('fails on an import against the direction', () => {
    const layer = layerOf('lib/rollups/repository/rooms.ts')!;
    expect(allowed[layer].values).not.toContain(layerOf('lib/rollups/pure/aggregates.ts'));
    expect(allowed[layerOf('lib/alarms/engine/run.ts')!].values).not.toContain(layerOf('lib/adapters/mail.ts'));
    const against = (from: string, to: string) => engineBreaches([{ from, to, typeOnly: false }]);
    expect(against('lib/rollups/recount.ts', 'lib/inventory/sync.ts')).toHaveLength(1);
    expect(against('lib/notify/notifier.ts', 'lib/alarms/engine/pass.ts')).toHaveLength(1);
    expect(against('lib/inventory/sync.ts', 'lib/alarms/engine/run.ts')).toHaveLength(1);
    expect(against('lib/alarms/engine/pass.ts', 'lib/notify/notifier.ts')).toEqual([]);
    expect(ioReached('lib/rollups/recount.ts')).toBeDefined();
  });
});
