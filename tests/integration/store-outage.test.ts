import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { intervals } from '#lib/config/intervals/repository';
import { logger } from '#lib/shared/log';
import { handler as create } from '../../functions/intervals/create';
import { handler as alarmsList } from '../../functions/alarms/list';
import { handler as roomStatusCount } from '../../functions/devices/roomStatusCount';
import { handler as upsertConfigs } from '../../functions/filterConfigs/upsertList';
import { handler as listConfigs } from '../../functions/filterConfigs/list';
import { apiEvent, jsonEvent, lambdaContext } from '../support/events';
import { storeOutage } from '../support/outage';

const settings = Object.fromEntries(INTERVAL_FIELDS.map((f) => [f, 60]));
let cure: () => Promise<void> = async () => {};
afterEach(async () => {
  await cure();
  cure = async () => {};
  vi.restoreAllMocks();
});

type Handler = (event: ReturnType<typeof apiEvent>, context: ReturnType<typeof lambdaContext>) => Promise<{ statusCode: number; body: string; headers?: Record<string, unknown> }>;
const call = async (handler: unknown, event = apiEvent()) => {
  const res = await (handler as Handler)(event, lambdaContext());
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers ?? {} };
};
/** Every line the logger writes during `act`, whatever its level. */
const logLines = async (act: () => Promise<unknown>) => {
  const spies = (['debug', 'info', 'warn', 'error'] as const).map((level) => vi.spyOn(logger, level).mockImplementation(() => {}));
  await act();
  return spies.flatMap((spy, i) => spy.mock.calls.map((args) => ({ level: ['debug', 'info', 'warn', 'error'][i], args })));
};

describe('a store that is down answers 503 with Retry-After, logged once, nothing half-written', () => {
  it.each(['refused', 'reset'] as const)('a write while connections are %s answers 503 and stores nothing; the retry after the outage stores one', async (kind) => {
    const before = (await intervals.list()).length;
    cure = await storeOutage(kind);
    let failed: Awaited<ReturnType<typeof call>> | undefined;
    const lines = await logLines(async () => {
      failed = await call(create, jsonEvent(settings));
    });
    expect(failed?.status).toBe(503);
    expect(failed?.headers['retry-after']).toMatch(/^[1-9]$/);
    expect(failed?.body?.message).toMatch(/; retry shortly$/);
    expect(lines).toHaveLength(1);
    // a refused connection is ECONNREFUSED; the SDK reports a dropped one as a timeout or a reset
    expect(lines[0]).toMatchObject({ level: 'warn', args: ['request', expect.objectContaining({ status: 503, reason: expect.stringMatching(/^store (unavailable|busy): /) })] });
    if (kind === 'refused') expect(lines[0]?.args[1]).toMatchObject({ reason: 'store unavailable: ECONNREFUSED' });
    await cure();
    cure = async () => {};
    expect((await intervals.list()).length).toBe(before);
    expect((await call(create, jsonEvent(settings))).status).toBe(200);
    expect((await intervals.list()).length).toBe(before + 1);
  });

  it('reads answer 503, also on endpoints whose invalid input is 422', async () => {
    cure = await storeOutage('refused');
    const all = { regionName: 'all', locationName: 'all', roomName: 'all' };
    for (const res of [await call(alarmsList), await call(roomStatusCount, jsonEvent(all))]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    }
  });

  it('a list upsert during an outage answers 503 and leaves every record as it was', async () => {
    const configs = [1, 2, 3].map((id) => ({ id, region: 'EMEA', locations: [{ locationName: `L${id}` }] }));
    expect((await call(upsertConfigs, jsonEvent(configs))).status).toBe(200);
    const before = (await call(listConfigs)).body;
    cure = await storeOutage('reset');
    const changed = configs.map((c) => ({ ...c, region: 'APAC' }));
    expect((await call(upsertConfigs, jsonEvent(changed))).status).toBe(503);
    await cure();
    cure = async () => {};
    expect((await call(listConfigs)).body).toEqual(before);
  });
});
