/**
 * Warm overhead (DESIGN §8): the full middy handler `GET /intervals/{id}` (validation, error
 * mapping, logging, one GetItem) against a raw DocumentClient GetItem of the same item on the
 * same embedded store, interleaved in rounds. Target: handler <= 1.3x raw.
 * Logs at the prod level (WARN), as the handler runs in production.
 */
import { median, reportResult, round, runWhenMain } from './lib';
import { startLocalStore } from '../scripts/local/dynamo';
import { storeEnv } from '../scripts/local/env';
import { apiEvent, lambdaContext } from '../tests/support/events';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const TARGET = 1.3;

export const runWarmBench = async () => {
  const store = await startLocalStore();
  // with the API key, as bench/run.ts runs every benchmark (ACCESS_MODE key), also when run alone (`npm run bench:warm`)
  Object.assign(process.env, storeEnv(store.endpoint), { TABLE_NAME: 'bench-warm', POWERTOOLS_LOG_LEVEL: 'WARN', ACCESS_MODE: process.env.ACCESS_MODE ?? 'key' });
  const { doc, dynamo, tableName } = await import('../lib/store/client');
  const { ensureTable } = await import('../lib/store/definition');
  const { intervals } = await import('../lib/config/intervals/repository');
  const { INTERVAL_FIELDS } = await import('../lib/config/intervals/types');
  const { IntervalEntity } = await import('../lib/config/entities');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { build } = await import('../scripts/generate');
  await build();
  const { handler } = await import('../functions/intervals/get');

  await ensureTable(dynamo, tableName());
  const record = await intervals.create(Object.fromEntries(INTERVAL_FIELDS.map((f) => [f, 60])) as never);
  const key = IntervalEntity.key(record.id);
  const event = apiEvent({ httpMethod: 'GET', resource: '/intervals/{id}', pathParameters: { id: String(record.id) } });

  const raw = async () => {
    await doc.send(new GetCommand({ TableName: tableName(), Key: key }));
  };
  const full = async () => {
    const res = await handler(structuredClone(event), lambdaContext());
    if (res.statusCode !== 200) throw new Error(`handler answered ${res.statusCode}`);
  };
  const perCall = async (fn: () => Promise<void>) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) await fn();
    return Number(process.hrtime.bigint() - start) / 1e6 / CALLS;
  };

  for (let i = 0; i < 50; i++) {
    await raw();
    await full();
  }
  const rawTimes: number[] = [];
  const fullTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rawTimes.push(await perCall(raw));
    fullTimes.push(await perCall(full));
  }
  const rawMs = median(rawTimes);
  const fullMs = median(fullTimes);
  const ratio = round(fullMs / rawMs, 3);
  const markdown = [
    '# Warm overhead',
    '',
    '| measure | ms per call (median of rounds) |',
    '|---|---:|',
    `| raw DocumentClient GetItem | ${round(rawMs, 3)} |`,
    `| full handler GET /intervals/{id} | ${round(fullMs, 3)} |`,
    '',
    `Ratio ${ratio} (target <= ${TARGET}: ${ratio <= TARGET ? 'met' : 'NOT met'}); ${ROUNDS} rounds of ${CALLS} calls each, embedded store on loopback.`,
  ].join('\n');
  reportResult('warm', { rounds: ROUNDS, callsPerRound: CALLS, rawMs: round(rawMs, 3), handlerMs: round(fullMs, 3), ratio }, markdown);
  await store.close();
};

runWhenMain(module, runWarmBench);
