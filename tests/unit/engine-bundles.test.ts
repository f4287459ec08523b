import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../support/bundles';
import { routes } from '../../scripts/registry';

/*
 * DESIGN §8 (import time is what a cold start pays; docs/adr/0505): code a function never runs
 * is handed in by the functions that run it, never imported by what every function shares.
 */
const carried = (metafile: Metafile, file: string): number =>
  Object.values(metafile.outputs).reduce((bytes, output) => bytes + (output.inputs[file]?.bytesInOutput ?? 0), 0);

describe('engine code in bundles', () => {
  it('functions that only run the queue do not carry the full pass', async () => {
    const queued = await importGraph('functions/alarms/evaluateQueued.ts');
    expect('lib/alarms/engine/queuePass.ts' in queued.inputs).toBe(true);
    expect('lib/alarms/engine/fullPass.ts' in queued.inputs).toBe(false);
    expect(carried(await importGraph('functions/alarms/evaluateNow.ts'), 'lib/alarms/engine/fullPass.ts')).toBeGreaterThan(0);
  }, 30_000);

  it('the refresh and the sync hand their changes to the queue evaluator: they carry neither the engine nor the notifier', async () => {
    for (const handler of ['functions/devices/refresh.ts', 'functions/devices/sync.ts']) {
      const inputs = Object.keys((await importGraph(handler)).inputs);
      const engine = inputs.filter((file) => file.startsWith('lib/alarms/engine/') || file.startsWith('lib/notify/'));
      expect({ handler, engine }).toEqual({ handler, engine: [] });
      expect(inputs).toContain('lib/adapters/nudge.ts');
    }
  }, 30_000);

  it('only routes whose contract is idempotent carry the idempotent run', async () => {
    for (const route of await routes()) {
      const carries = 'lib/http/idempotency.ts' in (await importGraph(route.handlerFile)).inputs;
      expect({ fn: route.functionName, carries }).toEqual({ fn: route.functionName, carries: route.contract.idempotent === true });
    }
  }, 60_000);
});
