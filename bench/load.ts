/**
 * HTTP load (DESIGN §8): autocannon against a private `npm start` instance (demo fleet of
 * SEED_DEVICES, still), 50 connections for BENCH_LOAD_SECONDS (default 20) on a mixed read
 * workload. Target: no request fails. Reports requests/s and latency percentiles.
 */
import autocannon from 'autocannon';
import { startInstance, stillFleetEnv } from '../scripts/local/instance';
import { reportResult, round, runWhenMain } from './lib';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const KEY = 'bench-load-key';
const all = JSON.stringify({ regionName: 'all', locationName: 'all', roomName: 'all' });
const json = { 'x-api-key': KEY, 'content-type': 'application/json' };

const workload = [
  { method: 'GET', path: '/intervals' },
  { method: 'POST', path: '/videoDevice/all/totalDevices', body: all },
  { method: 'POST', path: '/videoDevice/room/roomStatusCount', body: all },
  { method: 'POST', path: '/videoDevice/all/numOfDevicesByRoom', body: all },
  { method: 'POST', path: '/filters/region', body: '{}' },
  { method: 'GET', path: '/filters/videodevices' },
  { method: 'GET', path: '/watcher/all' },
  { method: 'GET', path: '/filters' },
  { method: 'GET', path: '/alarms?limit=50' },
] as const;

export const runLoadBench = async () => {
  const instance = await startInstance({
    workFolder: '.esbuild-bench',
    env: { API_KEY: KEY, SEED_DEVICES: process.env.SEED_DEVICES ?? '300', ...stillFleetEnv },
  });
  try {
    const base = new URL(instance.url);
    const prefix = base.pathname.replace(/\/$/, '');
    const requests = workload.map((r) => ({ method: r.method, path: `${prefix}${r.path}`, headers: json, ...('body' in r ? { body: r.body } : {}) }));
    // one warm-up pass so every function is loaded before the clock starts
    for (const r of workload) await fetch(`${instance.url}${r.path}`, { method: r.method, headers: json, body: 'body' in r ? r.body : undefined });
    const result = await autocannon({ url: base.origin, connections: CONNECTIONS, duration: SECONDS, requests });
    const failed = result.errors + result.timeouts + result.non2xx;
    const summary = {
      connections: CONNECTIONS,
      seconds: SECONDS,
      workload: workload.map((r) => `${r.method} ${r.path}`),
      requests: result.requests.total,
      requestsPerSecond: round(result.requests.average, 1),
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      failed,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    };
    const markdown = [
      '# HTTP load (npm start, serverless-offline in-process, embedded store)',
      '',
      `${CONNECTIONS} connections, ${SECONDS} s, mixed reads over ${workload.length} endpoints, demo fleet of ${process.env.SEED_DEVICES ?? 300} devices.`,
      '',
      '| requests | req/s | p50 ms | p90 ms | p99 ms | max ms | failed (target 0) |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      `| ${summary.requests} | ${summary.requestsPerSecond} | ${summary.latencyMs.p50} | ${summary.latencyMs.p90} | ${summary.latencyMs.p99} | ${summary.latencyMs.max} | ${failed} (${failed === 0 ? 'met' : 'NOT met'}) |`,
    ].join('\n');
    reportResult('load', summary, markdown);
  } finally {
    await instance.stop();
  }
};

runWhenMain(module, runLoadBench, false);
