/**
 * Local start time (DESIGN §8): from the `npm start` command to the first 200 of
 * `GET /intervals`, with the install warm. A first start has no data folder yet (table
 * created, demo fleet seeded, key pair generated); a warm start reuses the data folder of the
 * previous one. ROUNDS (BENCH_START_ROUNDS, default 3) rounds of one first start then two warm
 * starts. Targets: median warm <= 10 s, median first <= 20 s.
 *
 * Each start is `npm start` in a process group of its own, on ports of its own, with a marker
 * in its environment that every process it starts inherits (scripts/local/processes.ts). A start
 * counts only when it also printed its own `API ready ... in N s` line; it is stopped as Ctrl-C
 * would (SIGINT to its group) and must be gone, every process of it and every port closed,
 * before the next one begins. Anything else fails the benchmark instead of being recorded.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/local/ports';
import { markedProcesses, portClosed, startMarker, stopMarked } from '../scripts/local/processes';
import { median, root, round, writeResult } from './lib';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
const WARM_PER_ROUND = 2;
const KEY = 'bench-start-key';
const ANSWER_TIMEOUT_MS = 120_000;
/** how long after its first answer a start may take to print its ready line */
const READY_LINE_TIMEOUT_MS = 90_000;
const READY = /API ready at \S+ .* in ([\d.]+) s/;

interface Start {
  kind: 'first' | 'warm';
  /** from spawning `npm start` to the first 200, measured here */
  seconds: number;
  /** the ready time `npm start` printed itself */
  printed: number;
  /** 1-minute load average when the start began */
  load: number;
  /** Ctrl-Cs (SIGINT to its group) it took to stop it: 1 unless one was lost */
  interrupts: number;
  /** resident memory (MiB) once ready: the store's own process (DynamoDB Local's JVM), when it has one */
  storeRssMiB?: number | undefined;
  /** resident memory (MiB) once ready: the node process of scripts/start.ts (the store inside it, when embedded in-process) */
  startRssMiB?: number | undefined;
}

/** Resident memory of a process in MiB, from /proc (Linux); undefined elsewhere or when it is gone. */
const rssMiB = (pid: number): number | undefined => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? round(kb / 1024) : undefined;
  } catch {
    return undefined;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const startOnce = async (kind: Start['kind'], dataDir: string): Promise<Start> => {
  const ports: Record<string, string> = {};
  for (const name of ['PORT', 'DOCS_PORT', 'WEBSOCKET_PORT', 'DYNAMODB_PORT', 'LAMBDA_PORT']) ports[name] = String(await freePort());
  const marker = startMarker();
  const load = round(loadavg()[0]!);
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATA_DIR: dataDir, ...ports, API_KEY: KEY, ESBUILD_WORK_FOLDER: '.esbuild-bench-start', ...marker },
  });
  let output = '';
  let printed: number | undefined;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    const match = READY.exec(output);
    if (match && printed === undefined) printed = Number(match[1]);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const tail = () => output.split('\n').slice(-40).join('\n');

  let outcome: Start | Error;
  try {
    let seconds: number | undefined;
    while (seconds === undefined) {
      if (performance.now() - began > ANSWER_TIMEOUT_MS) throw new Error(`no 200 within ${ANSWER_TIMEOUT_MS} ms`);
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      const status = await fetch(`http://localhost:${ports.PORT}/dev/intervals`, { headers: { 'x-api-key': KEY }, signal: AbortSignal.timeout(5000) })
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) seconds = (performance.now() - began) / 1000;
      else await sleep(100);
    }
    const answeredAt = performance.now();
    while (printed === undefined && performance.now() - answeredAt < READY_LINE_TIMEOUT_MS) await sleep(100);
    if (printed === undefined) throw new Error(`answered after ${round(seconds)} s but printed no ready line within ${READY_LINE_TIMEOUT_MS} ms`);
    const processes = markedProcesses(marker);
    const store = processes.find((p) => /\bjava\b.*DynamoDBLocal/.test(p.command));
    // the node process itself, not the `sh -c` npm runs it through
    const starter = Math.max(0, ...processes.filter((p) => p.command.includes('scripts/start.ts')).map((p) => rssMiB(p.pid) ?? 0));
    outcome = { kind, seconds: round(seconds), printed, load, interrupts: 0, storeRssMiB: store && rssMiB(store.pid), startRssMiB: starter || undefined };
  } catch (error) {
    outcome = error instanceof Error ? error : new Error(String(error));
  }

  // stop it as Ctrl-C would; every process of it must end and every port close
  const { interrupts, killed } = await stopMarked(child, marker);
  const busy: string[] = [];
  for (const [name, port] of Object.entries(ports)) {
    let closed = await portClosed(Number(port));
    for (let i = 0; !closed && i < 50; i++) closed = (await sleep(100), await portClosed(Number(port)));
    if (!closed) busy.push(`${name} ${port}`);
  }
  const problems = [
    outcome instanceof Error ? outcome.message : '',
    killed.length ? `still running 15 s after SIGINT (then killed): ${killed.map((p) => `${p.pid} ${p.command}`).join('; ')}` : '',
    busy.length ? `ports still open after the stop: ${busy.join(', ')}` : '',
    markedProcesses(marker).length ? 'processes left after the stop' : '',
  ].filter(Boolean);
  if (problems.length) throw new Error(`${kind} start: ${problems.join('\n')}\n--- npm start output (last lines):\n${tail()}`);
  return { ...(outcome as Start), interrupts };
};

const main = async () => {
  const starts: Start[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
    try {
      for (const kind of ['first', ...Array<'warm'>(WARM_PER_ROUND).fill('warm')] as const) {
        const start = await startOnce(kind, dataDir);
        const stop = start.interrupts === 1 ? 'stopped by one SIGINT' : `stopped after ${start.interrupts} SIGINTs`;
        console.log(`${start.kind} start: first 200 after ${start.seconds} s; printed ready in ${start.printed} s (load ${start.load}); ${stop}`);
        starts.push(start);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const of = (kind: Start['kind'], field: 'seconds' | 'printed' = 'seconds') => starts.filter((s) => s.kind === kind).map((s) => s[field]);
  const summary = {
    firstMedianSeconds: round(median(of('first'))),
    warmMedianSeconds: round(median(of('warm'))),
    firstMedianPrinted: round(median(of('first', 'printed'))),
    storeRssMiB: starts.map((s) => s.storeRssMiB ?? null),
    startRssMiB: starts.map((s) => s.startRssMiB ?? null),
    warmMedianPrinted: round(median(of('warm', 'printed'))),
    starts,
  };
  writeResult(
    'start',
    summary,
    [
      '# Local start time (`bench/start.ts`)',
      '',
      'From spawning `npm start` to the first 200 of `GET /intervals`; "printed" is the ready time',
      '`npm start` printed itself (since the command). Every start was stopped by SIGINT (Ctrl-C) and',
      'left no process and no open port behind.',
      '',
      '| start | median | runs (s) | printed (median, s) | target |',
      '|---|---:|---|---:|---|',
      `| first (no data folder) | ${summary.firstMedianSeconds} s | ${of('first').join(', ')} | ${summary.firstMedianPrinted} | <= 20 s |`,
      `| warm (data folder kept) | ${summary.warmMedianSeconds} s | ${of('warm').join(', ')} | ${summary.warmMedianPrinted} | <= 10 s |`,
      '',
      `1-minute load average at each start: ${starts.map((s) => s.load).join(', ')}.`,
      `Resident memory once ready (MiB), the store's own process (DynamoDB Local's JVM): ${starts.map((s) => s.storeRssMiB ?? 'none (in-process)').join(', ')}; the node process of scripts/start.ts: ${starts.map((s) => s.startRssMiB ?? '?').join(', ')}.`,
      `SIGINTs each start took to stop: ${starts.map((s) => s.interrupts).join(', ')} (a second is sent 3 s after the first when anything still runs).`,
    ].join('\n'),
  );
  console.log(`first start median ${summary.firstMedianSeconds} s, warm start median ${summary.warmMedianSeconds} s`);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
