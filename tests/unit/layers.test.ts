import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/registry';

/**
 * The layout's rules, read off every import (docs/architecture.md "Layers"; ADR 0121). Imports are
 * read with the TypeScript parser; `import type`, `export type ... from` and `import('...')` types
 * count like any other import: a type import is still a dependency a reader has to follow.
 *
 * - No import cycle between files.
 * - The generic folders (lib/store, lib/http, lib/shared) import no domain and no adapter.
 * - A domain is one folder, lib/<domain>/; the alarm engine, lib/alarms/engine/, counts as a domain of
 *   its own (it sits above lib/notify, which uses the alarm model). Anything outside a domain
 *   reaches it only through its public module, lib/<domain>/index.ts (tests may import anything).
 * - The domains import each other along DOMAINS only, and DOMAINS has no cycle.
 * - lib/adapters (AWS clients other than DynamoDB) are wired in by functions and bindings: no
 *   domain or generic folder imports them, and no module outside them imports such a client.
 * - Modules under a `pure/` folder reach no I/O; repositories name no HTTP parameter.
 */

const GENERIC = ['lib/store', 'lib/http', 'lib/shared'] as const;
const ADAPTERS = 'lib/adapters';

/**
 * Each domain and the domains it may import, values and types alike. Bottom first: the list has
 * no cycle (checked below), so a change to one domain never needs a change below it to compile.
 */
const DOMAINS = {
  'lib/access': [],
  'lib/devices': [],
  'lib/config': ['lib/devices'],
  'lib/watchers': ['lib/access', 'lib/devices'],
  'lib/alarms': ['lib/devices', 'lib/watchers'],
  'lib/rollups': ['lib/alarms', 'lib/devices'],
  'lib/locations': ['lib/rollups'],
  'lib/maintenance': ['lib/alarms', 'lib/devices', 'lib/locations'],
  'lib/reports': ['lib/alarms', 'lib/devices', 'lib/maintenance', 'lib/rollups', 'lib/watchers'],
  'lib/notify': ['lib/alarms', 'lib/devices', 'lib/maintenance', 'lib/reports', 'lib/watchers'],
  'lib/inventory': ['lib/alarms', 'lib/devices', 'lib/rollups'],
  'lib/alarms/engine': ['lib/alarms', 'lib/config', 'lib/devices', 'lib/maintenance', 'lib/notify', 'lib/rollups', 'lib/watchers'],
  'lib/live': ['lib/alarms', 'lib/devices'],
} as const satisfies Record<string, readonly string[]>;
type Domain = keyof typeof DOMAINS;
const domainNames = Object.keys(DOMAINS) as Domain[];

/**
 * Imports between domains against DOMAINS that are still to be moved: a request-side service
 * (devices' availability and room answers, maintenance's window service, the watcher and report
 * writes) sits in the folder of the model it serves but uses a domain above it. Each goes when its
 * module moves up (or the piece it needs moves down). They stay direct imports, past the public
 * module, so that no public module closes a cycle. Nothing may be added here.
 */
const PENDING = new Set<string>([
  'lib/alarms/query.ts -> lib/maintenance/pure/windows.ts',
  'lib/alarms/query.ts -> lib/maintenance/service.ts',
  'lib/alarms/repository/alarmNotices.ts -> lib/notify/types.ts',
  'lib/alarms/repository/alarms.ts -> lib/notify/types.ts',
  'lib/alarms/inhibition/facts.ts -> lib/rollups/repository/rooms.ts',
  'lib/alarms/inhibition/facts.ts -> lib/rollups/repository/summaries.ts',
  'lib/devices/repository/devices.ts -> lib/inventory/repository/fingerprints.ts',
  'lib/devices/businessAvailability.ts -> lib/locations/pure/hours.ts',
  'lib/devices/businessAvailability.ts -> lib/locations/repository.ts',
  'lib/devices/businessAvailability.ts -> lib/locations/types.ts',
  'lib/devices/businessAvailability.ts -> lib/maintenance/pure/openings.ts',
  'lib/devices/businessAvailability.ts -> lib/maintenance/repository/windows.ts',
  'lib/devices/access.ts -> lib/rollups/pure/summary.ts',
  'lib/devices/access.ts -> lib/rollups/repository/rooms.ts',
  'lib/devices/access.ts -> lib/rollups/repository/summaries.ts',
  'lib/devices/availability.ts -> lib/rollups/pure/availability.ts',
  'lib/devices/businessAvailability.ts -> lib/rollups/pure/availability.ts',
  'lib/devices/businessAvailability.ts -> lib/rollups/pure/businessAvailability.ts',
  'lib/devices/csv.ts -> lib/rollups/pure/availability.ts',
  'lib/devices/repository/connectivity.ts -> lib/rollups/entities.ts',
  'lib/devices/repository/connectivity.ts -> lib/rollups/pure/availability.ts',
  'lib/devices/stats.ts -> lib/rollups/pure/summary.ts',
  'lib/maintenance/service.ts -> lib/notify/maintenanceRelease.ts',
  'lib/reports/pure/drafts.ts -> lib/notify/pure/digest.ts',
  'lib/reports/pure/drafts.ts -> lib/notify/pure/plan.ts',
  'lib/reports/pure/drafts.ts -> lib/notify/types.ts',
  'lib/reports/run.ts -> lib/notify/deliver.ts',
  'lib/reports/run.ts -> lib/notify/mail/types.ts',
  'lib/reports/service.ts -> lib/notify/channelIds.ts',
  'lib/reports/service.ts -> lib/notify/deliver.ts',
  'lib/reports/service.ts -> lib/notify/mail/types.ts',
  'lib/reports/service.ts -> lib/notify/repository/channels.ts',
  'lib/watchers/write.ts -> lib/alarms/inhibition/parents.ts',
  'lib/watchers/write.ts -> lib/alarms/repository/evaluationQueue.ts',
  'lib/watchers/repository.ts -> lib/notify/repository/channels.ts',
  'lib/watchers/write.ts -> lib/notify/channelIds.ts',
  'lib/watchers/write.ts -> lib/notify/mail/pure/recipients.ts',
]);

/** The domain a file belongs to: the longest domain folder that holds it. */
const domainOf = (file: string): Domain | undefined =>
  domainNames.filter((domain) => file.startsWith(`${domain}/`)).sort((a, b) => b.length - a.length)[0];
const isGeneric = (file: string) => GENERIC.some((folder) => file.startsWith(`${folder}/`));

const sources = (dir: string): string[] =>
  !existsSync(join(root, dir))
    ? []
    : readdirSync(join(root, dir)).flatMap((name) => {
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
  const add = (specifier: string, typeOnly: boolean) => {
    const to = resolve(file, specifier);
    found.push(to ? { from: file, to, typeOnly } : { from: file, to: specifier, typeOnly, external: true });
  };
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
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) add(argument.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

/** The generated bindings and validators are read when `npm run build` has written them (npm test runs it first). */
const files = ['functions', 'lib', 'schemas', 'generated'].flatMap(sources);
const everything = files.flatMap(importsOf);
const imports = everything.filter((i) => !i.external);

/** Every cycle of files (a strongly connected component of more than one file, or a file importing itself). */
const cyclesOf = (list: readonly Import[]): string[][] => {
  const graph = new Map<string, string[]>();
  for (const { from, to } of list) graph.set(from, [...(graph.get(from) ?? []), to]);
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
};

/** Imports from a generic folder into a domain or an adapter. */
const genericBreaches = (list: readonly Import[]): string[] =>
  list.flatMap(({ from, to, typeOnly }) =>
    isGeneric(from) && to.startsWith('lib/') && !isGeneric(to) ? [`${from} imports ${to}${typeOnly ? ' [type]' : ''}`] : [],
  );

/**
 * Domains not yet reached through a public module: a public module of one of them would close an
 * import cycle through the PENDING imports, so each gets its `index.ts` once its pending imports
 * have moved. Nothing may be added here.
 */
const WITHOUT_PUBLIC_MODULE = new Set<string>(['lib/alarms', 'lib/devices', 'lib/locations', 'lib/maintenance', 'lib/notify', 'lib/reports', 'lib/rollups', 'lib/watchers']);

/** Imports into a domain's files from outside it that skip its public module (tests are not read). */
const publicModuleBreaches = (list: readonly Import[]): string[] =>
  list.flatMap(({ from, to }) => {
    const target = domainOf(to);
    if (!target || WITHOUT_PUBLIC_MODULE.has(target) || domainOf(from) === target || to === `${target}/index.ts` || PENDING.has(`${from} -> ${to}`)) return [];
    return [`${from} imports ${to}: use ${target}/index.ts`];
  });

/** Imports between domains that DOMAINS does not list. */
const domainBreaches = (list: readonly Import[]): string[] =>
  list.flatMap(({ from, to, typeOnly }) => {
    const [a, b] = [domainOf(from), domainOf(to)];
    if (!a || !b || a === b || (DOMAINS[a] as readonly string[]).includes(b) || PENDING.has(`${from} -> ${to}`)) return [];
    return [`${from} (${a}) imports ${to} (${b})${typeOnly ? ' [type]' : ''}`];
  });

/** The domains in an order where each comes after all it imports; undefined when DOMAINS has a cycle. */
const domainOrder = (graph: Record<string, readonly string[]>): string[] | undefined => {
  const order: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (domain: string): boolean => {
    if (state.get(domain) === 'done') return true;
    if (state.get(domain) === 'open') return false;
    state.set(domain, 'open');
    if (!(graph[domain] ?? []).every(visit)) return false;
    state.set(domain, 'done');
    order.push(domain);
    return true;
  };
  return Object.keys(graph).every(visit) ? order : undefined;
};

/** Domains and generic folders reach lib/adapters never: the functions and bindings wire them in. */
const adapterBreaches = (list: readonly Import[]): string[] =>
  list.flatMap(({ from, to }) => (to.startsWith(`${ADAPTERS}/`) && (domainOf(from) || isGeneric(from)) ? [`${from} imports ${to}`] : []));

/**
 * What makes a module do I/O when it reaches it at run time: the store's client, an adapter, the
 * logger and metrics, and packages that talk to the outside. A module under a `pure/` folder
 * reaches none of them (docs/architecture.md "Pure and I/O modules").
 */
const IO_FILES = (file: string) => file === 'lib/store/client.ts' || file.startsWith(`${ADAPTERS}/`) || ['lib/shared/log.ts', 'lib/shared/metrics.ts', 'lib/shared/tracing.ts'].includes(file);
const IO_PACKAGES = /^(@aws-sdk\/|@smithy\/|@aws-lambda-powertools\/|node:(dns|http|https|net|fs|child_process)(\/|$)|(dns|http|https|net|fs|child_process)$)/;
/** The I/O a file reaches through its value imports, as a chain of files ending in the I/O; undefined when none. */
const ioReachedIn = (list: readonly Import[]) => {
  const values = new Map<string, Import[]>();
  for (const i of list) if (!i.typeOnly) values.set(i.from, [...(values.get(i.from) ?? []), i]);
  const reached = (file: string, seen = new Set<string>()): string[] | undefined => {
    if (seen.has(file)) return undefined;
    seen.add(file);
    for (const i of values.get(file) ?? []) {
      if (i.external ? IO_PACKAGES.test(i.to) : IO_FILES(i.to)) return [i.to];
      if (i.external) continue;
      const chain = reached(i.to, seen);
      if (chain) return [i.to, ...chain];
    }
    return undefined;
  };
  return reached;
};
const ioReached = ioReachedIn(everything);
const isPure = (file: string) => /\/pure\/[^/]+\.ts$/.test(file);

/** A repository: a domain's `repository.ts` or a module under its `repository/`, and the store's own. */
const isRepository = (file: string) =>
  /^lib\/[^/]+\/(.+\/)?repository(\.ts|\/)/.test(file) ||
  ['lib/store/caps.ts', 'lib/store/leases.ts', 'lib/store/partition.ts', 'lib/http/idempotencyKeys.ts', 'lib/http/idempotencyStore.ts'].includes(file);

const AWS_CLIENT = (specifier: string) =>
  (specifier.startsWith('@aws-sdk/') || specifier.startsWith('@smithy/')) && !specifier.startsWith('@aws-sdk/client-dynamodb') && !specifier.startsWith('@aws-sdk/lib-dynamodb');

const namesHttpParameter = (file: string): boolean => {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  let found = false;
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) && /^(queryStringParameters|pathParameters|body)(\.|$)/.test(node.text)) found = true;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

describe('layers', () => {
  it('reads the imports of every source file, type imports included', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(imports.some((i) => i.from.startsWith('lib/store/') && i.to === 'lib/store/client.ts')).toBe(true);
    expect(imports.some((i) => i.typeOnly)).toBe(true);
    expect(domainNames.every((domain) => files.some((file) => file.startsWith(`${domain}/`)))).toBe(true);
  });

  it('has no import cycle between files', () => {
    expect(cyclesOf(imports).map((cycle) => cycle.join(' <-> '))).toEqual([]);
  });

  it('fails on a cycle, a type import closing it included', () => {
    const cycle = cyclesOf([
      { from: 'lib/a/x.ts', to: 'lib/a/y.ts', typeOnly: false },
      { from: 'lib/a/y.ts', to: 'lib/a/z.ts', typeOnly: false },
      { from: 'lib/a/z.ts', to: 'lib/a/x.ts', typeOnly: true },
      { from: 'lib/a/z.ts', to: 'lib/a/w.ts', typeOnly: false },
    ]);
    expect(cycle).toEqual([['lib/a/x.ts', 'lib/a/y.ts', 'lib/a/z.ts']]);
    expect(cyclesOf([{ from: 'lib/a/x.ts', to: 'lib/a/x.ts', typeOnly: true }])).toHaveLength(1);
  });

  it('has the generic folders (lib/store, lib/http, lib/shared) import no domain', () => {
    expect(genericBreaches(imports)).toEqual([]);
  });

  it('fails on a generic folder importing a domain, if only a type', () => {
    expect(genericBreaches([{ from: 'lib/store/placeKeys.ts', to: 'lib/devices/types.ts', typeOnly: true }])).toHaveLength(1);
    expect(genericBreaches([{ from: 'lib/shared/audit.ts', to: 'lib/adapters/mail.ts', typeOnly: false }])).toHaveLength(1);
    expect(genericBreaches([{ from: 'lib/http/index.ts', to: 'lib/shared/log.ts', typeOnly: false }])).toEqual([]);
  });

  it('reaches a domain from outside only through its public module lib/<domain>/index.ts', () => {
    expect(publicModuleBreaches(imports)).toEqual([]);
  });

  it('gives every domain but the listed ones a public module, and lists none that has one', () => {
    expect(domainNames.filter((domain) => existsSync(join(root, domain, 'index.ts')) === WITHOUT_PUBLIC_MODULE.has(domain))).toEqual([]);
  });

  it('fails on a file inside another domain imported past its public module', () => {
    expect(publicModuleBreaches([{ from: 'lib/watchers/write.ts', to: 'lib/access/entities.ts', typeOnly: true }])).toHaveLength(1);
    expect(publicModuleBreaches([{ from: 'functions/devices/sync.ts', to: 'lib/inventory/providers.ts', typeOnly: false }])).toHaveLength(1);
    expect(publicModuleBreaches([{ from: 'lib/live/push.ts', to: 'lib/alarms/engine/run.ts', typeOnly: false }])).toHaveLength(1);
    expect(publicModuleBreaches([{ from: 'lib/watchers/write.ts', to: 'lib/access/index.ts', typeOnly: false }])).toEqual([]);
    expect(publicModuleBreaches([{ from: 'lib/access/signin.ts', to: 'lib/access/sign.ts', typeOnly: false }])).toEqual([]);
  });

  it('lists a domain graph without a cycle', () => {
    expect(domainOrder(DOMAINS)).toBeDefined();
    expect(domainOrder({ 'lib/a': ['lib/b'], 'lib/b': ['lib/c'], 'lib/c': ['lib/a'] })).toBeUndefined();
  });

  it('has the domains import each other only along DOMAINS', () => {
    expect(domainBreaches(imports)).toEqual([]);
  });

  it('lists no dependency between domains that no import uses', () => {
    const used = new Set(imports.map(({ from, to }) => `${domainOf(from)} -> ${domainOf(to)}`));
    const listed = domainNames.flatMap((domain) => DOMAINS[domain].map((below) => `${domain} -> ${below}`));
    expect(listed.filter((edge) => !used.has(edge))).toEqual([]);
  });

  it('keeps the pending list honest: each entry is still an import between domains against DOMAINS', () => {
    const present = new Set(imports.map(({ from, to }) => `${from} -> ${to}`));
    expect([...PENDING].filter((entry) => !present.has(entry))).toEqual([]);
    expect([...PENDING].filter((entry) => {
      const [from = '', to = ''] = entry.split(' -> ');
      const [a, b] = [domainOf(from), domainOf(to)];
      return !a || !b || a === b || (DOMAINS[a] as readonly string[]).includes(b);
    })).toEqual([]);
  });

  it('fails on an import between domains against DOMAINS', () => {
    const against = (from: string, to: string) => domainBreaches([{ from, to, typeOnly: true }]);
    expect(against('lib/rollups/recount.ts', 'lib/inventory/index.ts')).toHaveLength(1);
    expect(against('lib/notify/notifier.ts', 'lib/alarms/engine/index.ts')).toHaveLength(1);
    expect(against('lib/alarms/engine/pass.ts', 'lib/notify/index.ts')).toEqual([]);
    expect(domainOf('lib/alarms/engine/pure/plan.ts')).toBe('lib/alarms/engine');
    expect(domainOf('lib/alarms/pure/silences.ts')).toBe('lib/alarms');
  });

  it('keeps lib/adapters out of the domains and generic folders: functions and bindings wire them in', () => {
    expect(adapterBreaches(imports)).toEqual([]);
    expect(adapterBreaches([{ from: 'lib/notify/deliver.ts', to: 'lib/adapters/mail.ts', typeOnly: true }])).toHaveLength(1);
    expect(adapterBreaches([{ from: 'functions/alarms/evaluateNow.ts', to: 'lib/adapters/mail.ts', typeOnly: false }])).toEqual([]);
  });

  it('keeps AWS clients other than DynamoDB in lib/adapters', () => {
    const outside = everything.filter((i) => i.external && AWS_CLIENT(i.to) && !i.from.startsWith(`${ADAPTERS}/`));
    expect(outside.map(({ from, to }) => `${from} imports ${to}`)).toEqual([]);
    expect(AWS_CLIENT('@aws-sdk/client-ssm') && !AWS_CLIENT('@aws-sdk/lib-dynamodb')).toBe(true);
  });

  it('lets no repository name an HTTP parameter', () => {
    const repositories = files.filter(isRepository);
    expect(repositories.length).toBeGreaterThan(30);
    expect(repositories.filter(namesHttpParameter)).toEqual([]);
  });

  it('keeps the modules of pure/ folders free of I/O', () => {
    const pure = files.filter(isPure);
    expect(pure.length).toBeGreaterThan(15);
    expect(
      pure.flatMap((file) => {
        const chain = ioReached(file);
        return chain ? [`${file} -> ${chain.join(' -> ')}`] : [];
      }),
    ).toEqual([]);
  });

  it('fails on a pure module reaching I/O through another module', () => {
    const reached = ioReachedIn([
      { from: 'lib/a/pure/x.ts', to: 'lib/a/y.ts', typeOnly: false },
      { from: 'lib/a/y.ts', to: 'lib/shared/log.ts', typeOnly: false },
      { from: 'lib/a/pure/z.ts', to: 'lib/a/y.ts', typeOnly: true },
    ]);
    expect(reached('lib/a/pure/x.ts')).toEqual(['lib/a/y.ts', 'lib/shared/log.ts']);
    expect(reached('lib/a/pure/z.ts')).toBeUndefined();
    expect(ioReached('lib/rollups/recount.ts')).toBeDefined();
  });
});
