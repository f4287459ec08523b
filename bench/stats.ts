/**
 * Stats endpoints at 1k, 10k and 100k devices over the same 1,000 rooms (DESIGN §8: 100k within
 * 2x of 1k). Handler-level: each handler is called in-process with an API Gateway event, against
 * an in-memory DynamoDB Local, median of repeated calls. Writes bench/results/stats.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { build } from '../scripts/generate';
import { startLocalStore } from '../scripts/local/dynamo';
import { storeEnv } from '../scripts/local/env';
import { jsonEvent, lambdaContext } from '../tests/support/events';
import { fleetModules, median, runWhenMain } from './lib';

const context = lambdaContext();

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const ROOMS = 1000;
const CALLS = Number(process.env.BENCH_CALLS ?? 15);
const WARMUP = 3;
const ENDPOINTS = ['totalDevices', 'devicesConnected', 'numOfDevicesByRoom', 'numOfRooms', 'numDevicesConnected', 'roomStatusCount'] as const;
const FILTERS = {
  everything: { regionName: 'all', locationName: 'all', roomName: 'all' },
  region: { regionName: 'EMEA', locationName: 'all', roomName: 'all' },
  location: { regionName: 'all', locationName: 'London', roomName: 'all' },
  roomName: { regionName: 'all', locationName: 'all', roomName: 'Room 5' },
  oneRoom: { regionName: 'EMEA', locationName: 'London', roomName: 'Room 5' },
};
/** Endpoints whose handler file has another name. */
const FILES: Partial<Record<string, string>> = { devicesConnected: 'connected' };
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export const runStatsBench = async () => {
  await build();
  const store = await startLocalStore();
  Object.assign(process.env, storeEnv(store.endpoint), { POWERTOOLS_LOG_LEVEL: 'SILENT', TABLE_NAME: 'bench-stats' });
  const { dynamo, ensureTable, devices, recountRooms, simulatedFleet } = await fleetModules();
  const { toDevice } = await import('../lib/devices/types');
  const handlers = Object.fromEntries(
    await Promise.all(
      ENDPOINTS.map(async (name) => [name, ((await import(`../functions/devices/${FILES[name] ?? name}`)) as { handler: Handler }).handler] as const),
    ),
  );

  const results: Record<string, unknown>[] = [];
  let deviceJsonBytes = 0;
  for (const size of SIZES) {
    process.env.TABLE_NAME = `bench-stats-${size}`;
    await ensureTable(dynamo, process.env.TABLE_NAME);
    const fleet = simulatedFleet({ seed: 1, devices: size, rooms: ROOMS });
    deviceJsonBytes = JSON.stringify(fleet.map(toDevice)).length / size;
    const seedStart = performance.now();
    const chunk = Math.ceil(fleet.length / 8);
    await Promise.all(Array.from({ length: 8 }, (_, i) => devices.writeAll(fleet.slice(i * chunk, (i + 1) * chunk), [])));
    const places = [...new Map(fleet.map((d) => [JSON.stringify(d.details), d.details])).values()];
    await recountRooms(places);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    console.log(`${size} devices in ${places.length} rooms seeded in ${seedSeconds.toFixed(1)} s`);

    for (const endpoint of ENDPOINTS) {
      for (const [filterName, filter] of Object.entries(FILTERS)) {
        const times: number[] = [];
        for (let i = 0; i < WARMUP + CALLS; i++) {
          const started = performance.now();
          const response = await handlers[endpoint]!(jsonEvent(filter), context);
          const elapsed = performance.now() - started;
          if (response.statusCode !== 200) throw new Error(`${endpoint} answered ${response.statusCode}: ${response.body}`);
          if (i >= WARMUP) times.push(elapsed);
        }
        results.push({ devices: size, rooms: places.length, endpoint, filter: filterName, medianMs: Number(median(times).toFixed(2)) });
      }
    }
    console.log(`${size}: measured`);
  }
  await store.close();

  const at = (size: number, endpoint: string, filter: string) =>
    results.find((r) => r.devices === size && r.endpoint === endpoint && r.filter === filter)?.medianMs as number | undefined;
  const [small, large] = [SIZES[0]!, SIZES[SIZES.length - 1]!];
  const summary = ENDPOINTS.flatMap((endpoint) =>
    Object.keys(FILTERS).map((filter) => {
      const row: Record<string, unknown> = { endpoint, filter };
      for (const size of SIZES) row[`${size}`] = at(size, endpoint, filter);
      const ratio = (at(large, endpoint, filter) ?? NaN) / (at(small, endpoint, filter) ?? NaN);
      row.ratio = Number(ratio.toFixed(2));
      return row;
    }),
  );
  const output = {
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, arch: process.arch },
    method: `handler-level, DynamoDB Local (memory, its own JVM), ${ROOMS} rooms, median of ${CALLS} calls after ${WARMUP} warm-up`,
    target: `${large} devices within 2x of ${small}`,
    deviceJsonBytes: Math.round(deviceJsonBytes),
    unpaginatedAllDevicesLimit: Math.floor(LAMBDA_RESPONSE_LIMIT / (deviceJsonBytes + 1)),
    summary,
    results,
  };
  const dir = resolve(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'stats.json'), `${JSON.stringify(output, null, 2)}\n`);
  console.table(summary);
  console.log(`one device is ~${output.deviceJsonBytes} bytes of JSON: an un-paginated allDevices passes 6 MB at ~${output.unpaginatedAllDevicesLimit} devices`);
};

runWhenMain(module, runStatsBench);
