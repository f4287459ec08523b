import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { askingWithin, PROVIDER_MAX_MS, providerBudget, REFRESH_TIMEOUT_MS, RESERVE_MS } from '#lib/inventory/refreshBudget';
import { NUDGE_TIMEOUT_MS } from '#lib/adapters/nudge';
import { ServiceUnavailable } from '#lib/shared/errors';
import { root } from '../../scripts/registry';

/** devicesRefresh's budgets fit inside its timeout (issue 23 finding 8). */
describe('refresh budgets', () => {
  it('match the function timeout serverless.yml gives devicesRefresh', () => {
    const config = readFileSync(join(root, 'serverless.yml'), 'utf8');
    const functions = load(readFileSync(join(root, 'generated', 'functions.yml'), 'utf8')) as Record<string, { timeout?: number }>;
    const providerTimeout = Number(/^provider:\n(?:.*\n)*? {2}timeout: (\d+)$/m.exec(config)?.[1]);
    expect((functions.devicesRefresh?.timeout ?? providerTimeout) * 1000).toBe(REFRESH_TIMEOUT_MS);
  });

  it('at the full timeout: 4 s for the provider, and the reserve holds the nudge of the evaluator', () => {
    expect(providerBudget(REFRESH_TIMEOUT_MS)).toBe(PROVIDER_MAX_MS);
    expect(NUDGE_TIMEOUT_MS).toBeLessThan(RESERVE_MS);
  });

  it('never lets provider + reserve exceed the time left, whatever the time left', () => {
    for (let remaining = 0; remaining <= 30_000; remaining += 250) {
      const provider = providerBudget(remaining);
      expect(provider).toBeGreaterThanOrEqual(0);
      expect(provider).toBeLessThanOrEqual(PROVIDER_MAX_MS);
      if (remaining >= RESERVE_MS) expect(provider + RESERVE_MS, `remaining ${remaining}`).toBeLessThanOrEqual(remaining);
      else expect(provider).toBe(0);
    }
  });

  it('answers 503 when the provider does not answer within its budget', async () => {
    const never = { listDevices: () => new Promise<never>(() => undefined), getDevice: () => new Promise<never>(() => undefined) };
    const startedAt = Date.now();
    await expect(askingWithin(never, 50).getDevice('X')).rejects.toBeInstanceOf(ServiceUnavailable);
    expect(Date.now() - startedAt).toBeLessThan(1000);
    const quick = { listDevices: async () => [], getDevice: async () => undefined };
    expect(await askingWithin(quick, 50).getDevice('X')).toBeUndefined();
  });

  it('passes the stored device and the meter on (a fleet asks the device\'s own vendor)', async () => {
    const seen: unknown[][] = [];
    const recording = { listDevices: async () => [], getDevice: async (...args: unknown[]) => void seen.push(args) };
    const stored = { vendor: 'zoom' } as never;
    const meter = { requests: 0 } as never;
    await askingWithin(recording, 50).getDevice('X', stored, meter);
    expect(seen).toEqual([['X', stored, meter]]);
  });
});
