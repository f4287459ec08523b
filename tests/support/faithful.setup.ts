import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';
import { settleIndexes } from './faithful';
import { repositoryFiles } from './repositories';

/*
 * How the faithful project (tests/support/faithful.ts) runs the engine's integration tests.
 *
 * A test's own calls into lib/ stand for separate events: a sync, a refresh or an evaluation
 * run (separate Lambda invocations, at least a minute apart on the schedule), or someone
 * reading the API afterwards. Each of those starts once the indexes caught up with what came
 * before it. Calls the engine makes inside an invocation never wait: a run that reads its own
 * writes back through an index sees the lag, which is what this mode exists to catch.
 *
 * So every async export of the engine's modules is wrapped: a call whose direct caller is a test file
 * settles the indexes first; a call from lib/ goes straight through.
 */
const root = resolve(import.meta.dirname, '..', '..');
const MODULE_FOLDERS = [
  'lib/devices',
  'lib/inventory',
  'lib/inventory/pure',
  'lib/rollups',
  'lib/rollups/pure',
  'lib/alarms',
  'lib/alarms/pure',
  'lib/alarms/engine',
  'lib/alarms/engine/pure',
  'lib/notify',
  'lib/notify/pure',
  'lib/reports',
  'lib/reports/pure',
];
/** Entity declarations are no entry points: the repositories call them. */
const isEntities = (path: string) => path.endsWith('/entities.ts');

const calledFromTest = (): boolean => {
  const caller = new Error().stack?.split('\n')[3] ?? '';
  return caller.includes('/tests/') && !caller.includes('/tests/support/faithful');
};

type Fn = (...args: unknown[]) => unknown;
/** Marks a wrapped function, so that a module re-exporting another's (`export *`) keeps it as it is. */
const SETTLING = Symbol('settling');
const settling = (fn: Fn): Fn =>
  Object.assign(
    function (this: unknown, ...args: unknown[]) {
      if (!calledFromTest()) return fn.apply(this, args);
      return settleIndexes().then(() => fn.apply(this, args));
    },
    { [SETTLING]: true },
  );

/**
 * Only async functions reach the store; pure helpers (key builders, planners) stay as they are.
 * (An entry point that returns a promise must be declared `async` to be recognised here:
 * tests/unit/async-entry-points.test.ts holds every repository export to it.)
 */
const isAsync = (value: unknown): value is Fn => typeof value === 'function' && value.constructor.name === 'AsyncFunction';

/** A plain object whose async methods settle like exports (what a factory such as `notifier()` returns). */
const withSettlingMethods = (value: unknown): unknown => {
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.some(([, v]) => isAsync(v))) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, isAsync(v) ? settling(v) : v]));
};

const wrapExport = (value: unknown): unknown => {
  if (typeof value === 'function' && SETTLING in value) return value;
  if (isAsync(value)) return settling(value);
  if (typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value))) {
    const fn = value as Fn;
    return function (this: unknown, ...args: unknown[]) {
      return withSettlingMethods(fn.apply(this, args));
    };
  }
  // entity declarations (lib/store/entity.ts) are what repositories call: left as they are
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && !('fromItem' in value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.some(([, v]) => isAsync(v))) {
      return Object.fromEntries(entries.map(([k, v]) => [k, isAsync(v) ? settling(v) : v]));
    }
  }
  return value;
};

const modules = [...repositoryFiles(), ...MODULE_FOLDERS.flatMap((folder) => readdirSync(join(root, folder)).map((file) => `${folder}/${file}`))];
for (const path of new Set(modules)) {
  {
    if (!path.endsWith('.ts') || isEntities(path)) continue;
    vi.doMock(join(root, path), async (importOriginal) => {
      const original = await importOriginal<Record<string, unknown>>();
      return Object.fromEntries(Object.entries(original).map(([name, value]) => [name, wrapExport(value)]));
    });
  }
}
