/**
 * Live pushes (issue 17): a private `npm start` instance (still demo fleet), 500 WebSockets
 * opened with tickets over every kind of scope (most narrow), then 50 room changes per second for
 * BENCH_LIVE_SECONDS (20), after BENCH_LIVE_WARMUP_SECONDS (5) of the same load reported apart:
 * each flips one device's connection in the instance's store as a refresh writes it and
 * recomputes its room, so the push goes through the same seam and serverless-offline's
 * @connections endpoint. Reports pushes expected (sockets whose
 * scope holds the room) and delivered, p50/p99 delay from the start of the change to
 * receipt, and errors. Target: nothing lost, p99 under 1 s.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import WebSocket from 'ws';
import { startInstance, stillFleetEnv } from '../scripts/local/instance';
import { localTableName, storeEnv } from '../scripts/local/env';
import { fleetModules, reportResult, round, runWhenMain } from './lib';

const SOCKETS = Number(process.env.BENCH_LIVE_SOCKETS ?? 500);
const CHANGES_PER_SECOND = Number(process.env.BENCH_LIVE_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
/** The same load, run first and reported apart: the emulator, the store and this process start cold. */
const WARMUP_SECONDS = Number(process.env.BENCH_LIVE_WARMUP_SECONDS ?? 5);
const KEY = 'bench-live-key';
const EMULATOR_POSTS = Number(process.env.BENCH_LIVE_EMULATOR_POSTS ?? 5000);

type Filter = { regionName: string; locationName: string; roomName: string };

/*
 * CPU seconds used so far by every process of the instance's process group (found from the
 * process listening on its WebSocket port), from /proc: how much of the machine the local
 * runtime (embedded store, offline, WebSocket server) took during the run. Undefined off Linux.
 */
const groupCpuSeconds = (port: string): (() => number | undefined) => {
  try {
    const pid = /pid=(\d+)/.exec(execFileSync('ss', ['-Htlnp', `sport = :${port}`], { encoding: 'utf8' }))?.[1];
    const stat = (id: string) => readFileSync(`/proc/${id}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    const group = pid ? stat(pid)[2] : undefined; // field 5, pgrp
    const ticks = 100; // USER_HZ
    return () => {
      if (!group) return undefined;
      let total = 0;
      for (const id of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
        try {
          const fields = stat(id);
          if (fields[2] === group) total += (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
        } catch {
          /* gone meanwhile */
        }
      }
      return total;
    };
  } catch {
    return () => undefined;
  }
};
const percentile = (sorted: readonly number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

export const runLiveBench = async () => {
  const instance = await startInstance({ workFolder: '.esbuild-bench', env: { API_KEY: KEY, SEED_DEVICES: '300', ...stillFleetEnv } });
  try {
    // this process writes into the instance's store, as npm start's own sync loop would
    if (!instance.storeEndpoint) throw new Error('npm start did not say where its store is');
    Object.assign(process.env, storeEnv(instance.storeEndpoint), { TABLE_NAME: localTableName() });
    const { devices, rooms, onStored } = await fleetModules();
    const { recomputeRoom } = await import('../lib/rollups/rooms');
    const { enableLivePush } = await import('../lib/live/push');
    const { managementApi } = await import('../lib/adapters/connections');
    const { covers } = await import('../lib/live/scope');
    const { roomKey } = await import('../lib/devices/types');

    const inventory = await devices.index();
    const roomList = await rooms.inPlace({});
    const byRoom = new Map<string, typeof inventory>();
    for (const device of inventory) byRoom.set(roomKey(device.details), [...(byRoom.get(roomKey(device.details)) ?? []), device]);

    // dashboards over every kind of scope, most of them narrow, as sites and rooms watch theirs:
    // 2 % everything, 8 % a region, 20 % a location, 20 % a room name, 50 % one room
    const kinds: [number, (r: (typeof roomList)[number]) => Filter][] = [
      [2, () => ({ regionName: 'all', locationName: 'all', roomName: 'all' })],
      [8, (r) => ({ regionName: r.region, locationName: 'all', roomName: 'all' })],
      [20, (r) => ({ regionName: r.region, locationName: r.location, roomName: 'all' })],
      [20, (r) => ({ regionName: 'all', locationName: 'all', roomName: r.room })],
      [50, (r) => ({ regionName: r.region, locationName: r.location, roomName: r.room })],
    ];
    const filters: Filter[] = kinds.flatMap(([percent, filterOf]) =>
      Array.from({ length: (SOCKETS * percent) / 100 }, (_, i) => filterOf(roomList[(i * 7) % roomList.length]!)),
    );
    const ticket = async (filter: Filter) => {
      const res = await fetch(`${instance.url}/live/ticket`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ filter }) });
      if (res.status !== 201) throw new Error(`ticket answered ${res.status}`);
      return ((await res.json()) as { url: string }).url;
    };
    /** `${room}|${at}` -> when the change began, and whether it was part of the warm-up */
    const started = new Map<string, { begun: number; warm: boolean }>();
    const warmup = { expected: 0, received: 0, delays: [] as number[] };
    const delays: number[] = [];
    const pushDelays: number[] = []; // from the moment the room was stored (the message's `at`) to receipt
    let received = 0;
    /** Receipts of a push a socket already had (a post retried after its answer was late): not deliveries. */
    let duplicates = 0;
    const seen = new Set<string>();
    let unmatched = 0;
    let socketErrors = 0;
    const sockets: WebSocket[] = [];
    const connectStart = Date.now();
    for (let i = 0; i < SOCKETS; i += 25) {
      const batch = filters.slice(i, i + 25);
      sockets.push(
        ...(await Promise.all(
          batch.map(
            async (filter, b) =>
              new Promise<WebSocket>(async (open, fail) => {
                const socket = new WebSocket(await ticket(filter));
                socket.on('message', (data) => {
                  const now = Date.now();
                  const message = JSON.parse(String(data)) as { type: string; at?: string; room?: { region: string; location: string; room: string } };
                  if (message.type !== 'room' || !message.room) return;
                  const receipt = `${i + b}|${roomKey(message.room)}|${message.at}`;
                  if (seen.has(receipt)) {
                    duplicates++;
                    return;
                  }
                  seen.add(receipt);
                  // only pushes of this bench's own changes count: anything else the instance pushed is reported apart
                  const change = started.get(`${roomKey(message.room)}|${message.at}`);
                  if (change === undefined) {
                    unmatched++;
                    return;
                  }
                  if (change.warm) {
                    warmup.received++;
                    warmup.delays.push(now - change.begun);
                    return;
                  }
                  received++;
                  if (message.at) pushDelays.push(now - Date.parse(message.at));
                  delays.push(now - change.begun);
                });
                socket.on('error', () => socketErrors++);
                socket.once('open', () => open(socket));
                socket.once('unexpected-response', (_q, res) => fail(new Error(`handshake refused ${res.statusCode}`)));
              }),
          ),
        )),
      );
    }
    const connectSeconds = (Date.now() - connectStart) / 1000;

    // the change's start, keyed by what its push will carry; registered before the push itself
    const pending = new Map<string, { begun: number; warm: boolean }>();
    // pushes owed: for every room change that was stored, each socket whose scope holds the room
    let expected = 0;
    let stored = 0;
    onStored(async (change) => {
      if (change.kind !== 'room') return;
      const begun = pending.get(roomKey(change.room));
      const owed = filters.filter((f) => covers(f, change.room)).length;
      if (begun?.warm) warmup.expected += owed;
      else {
        stored++;
        expected += owed;
      }
      if (begun !== undefined) started.set(`${roomKey(change.room)}|${change.at}`, begun);
    });
    // posts that failed and changes whose push failed as a whole (e.g. the subscriber read) are errors, not silence
    let postsFailed = 0;
    let pushesFailed = 0;
    let owedByFailedPushes = 0;
    const readTimes: number[] = [];
    const postTimes: number[] = [];
    enableLivePush(managementApi(new URL((await ticket(filters[0]!)).replace(/^ws/, 'http')).origin), (outcome, change) => {
      if (change.kind !== 'room' || pending.get(roomKey(change.room))?.warm) return;
      if (outcome instanceof Error) {
        if (pushesFailed++ < 3) console.error('push failed:', outcome.message);
        owedByFailedPushes += filters.filter((f) => covers(f, change.room)).length;
      } else {
        postsFailed += outcome.failed;
        readTimes.push(outcome.readMs);
        postTimes.push(outcome.postMs);
      }
    });

    let changeErrors = 0;
    const roomKeys = [...byRoom.keys()];
    const total = CHANGES_PER_SECOND * SECONDS;
    /** `count` changes at CHANGES_PER_SECOND, the n-th flipping a device of room n; settled when all are. */
    const runChanges = async (first: number, count: number, warm: boolean) => {
      const inFlight: Promise<void>[] = [];
      const begin = Date.now();
      for (let n = first; n < first + count; n++) {
        const due = begin + ((n - first) * 1000) / CHANGES_PER_SECOND;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const key = roomKeys[n % roomKeys.length]!;
        const members = byRoom.get(key)!;
        const device = members[Math.floor(n / roomKeys.length) % members.length]!;
        device.status = { ...device.status, connected: !device.status.connected };
        inFlight.push(
          (async () => {
            pending.set(key, { begun: Date.now(), warm });
            try {
              await devices.put(device);
              await recomputeRoom(device.details);
            } catch (error) {
              if (changeErrors++ < 3) console.error('change failed:', error instanceof Error ? `${error.name}: ${error.message}` : error);
            }
          })(),
        );
      }
      await Promise.all(inFlight);
    };
    const warmCount = CHANGES_PER_SECOND * WARMUP_SECONDS;
    await runChanges(0, warmCount, true);
    const warmQuietUntil = Date.now() + 5000;
    while (Date.now() < warmQuietUntil && warmup.received < warmup.expected) await new Promise((r) => setTimeout(r, 100));
    const warmChangeErrors = changeErrors;
    changeErrors = 0;
    const loadAtStart = loadavg()[0]!;
    // serverless-offline (its own process group, found by the WebSocket port) and npm start
    // itself, which embeds the store (found by the store's port)
    const offlineCpu = groupCpuSeconds(new URL(await ticket(filters[0]!)).port);
    const storeCpu = groupCpuSeconds(new URL(instance.storeEndpoint).port);
    const offlineCpuAtStart = offlineCpu();
    const storeCpuAtStart = storeCpu();
    const benchCpuAtStart = process.cpuUsage();
    const changeStart = Date.now();
    await runChanges(warmCount, total, false);
    const changeSeconds = (Date.now() - changeStart) / 1000;
    const offlineCpuAtEnd = offlineCpu();
    const storeCpuAtEnd = storeCpu();
    const benchCpu = process.cpuUsage(benchCpuAtStart);
    // CPU seconds per second of the change phase: 1.0 is one core saturated
    const share = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? null : round((to - from) / changeSeconds));
    const cpuShare = {
      offline: share(offlineCpuAtStart, offlineCpuAtEnd),
      npmStartWithStore: share(storeCpuAtStart, storeCpuAtEnd),
      benchProcess: round((benchCpu.user + benchCpu.system) / 1e6 / changeSeconds),
    };
    // let the last pushes arrive
    const quietUntil = Date.now() + 5000;
    while (Date.now() < quietUntil && received < expected) await new Promise((r) => setTimeout(r, 100));

    // The emulator's own ceiling, on the same open sockets: POST /@connections/{id} as fast as
    // 32 parallel posts go, once with a trivial keep-alive client (no signing), once through the
    // push adapter (signed); what each costs this process in CPU per post.
    const liveConnections = await import('../lib/live/repository/connections');
    const { filterScopeKey } = await import('../lib/live/scope');
    const ids = [...new Set((await Promise.all([...new Set(filters.map(filterScopeKey))].map((key) => liveConnections.subscribersOf(key)))).flat().map((s) => s.connectionId))];
    const origin = new URL((await ticket(filters[0]!)).replace(/^ws/, 'http')).origin;
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const trivialPost = (id: string, data: string) =>
      new Promise<void>((done, fail) => {
        const req = request(`${origin}/@connections/${encodeURIComponent(id)}`, { method: 'POST', agent, headers: { 'content-length': Buffer.byteLength(data) } }, (res) => {
          res.resume();
          res.once('end', () => (res.statusCode! < 300 ? done() : fail(new Error(`answered ${res.statusCode}`))));
        });
        req.once('error', fail);
        req.end(data);
      });
    const adapter = managementApi(origin);
    const ceiling = async (post: (id: string, data: string) => Promise<unknown>) => {
      const posts = ids.length ? EMULATOR_POSTS : 0;
      let next = 0;
      let failed = 0;
      const cpu = process.cpuUsage();
      const began = Date.now();
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < posts) {
            const n = next++;
            await post(ids[n % ids.length]!, JSON.stringify({ type: 'probe', n })).catch(() => failed++);
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return { posts, failed, perSecond: Math.round((posts / Math.max(1, Date.now() - began)) * 1000), cpuMsPerPost: round((used.user + used.system) / 1000 / Math.max(1, posts), 3) };
    };
    await ceiling(trivialPost); // warm-up: the emulator's first thousands of requests run cold
    const emulator = { trivialClient: await ceiling(trivialPost), pushAdapter: await ceiling((id, data) => adapter.post(id, data)), loadAverage: round(loadavg()[0]!, 1) };
    agent.destroy();
    for (const socket of sockets) socket.close();

    delays.sort((a, b) => a - b);
    warmup.delays.sort((a, b) => a - b);
    pushDelays.sort((a, b) => a - b);
    readTimes.sort((a, b) => a - b);
    postTimes.sort((a, b) => a - b);
    const summary = {
      sockets: SOCKETS,
      scopes: '2 % everything, 8 % region, 20 % location, 20 % room name, 50 % one room',
      loadAverage: { atStart: round(loadAtStart, 1), atEnd: round(loadavg()[0]!, 1) },
      connectSeconds: round(connectSeconds, 1),
      changes: total,
      changesStored: stored,
      changesPerSecondAsked: CHANGES_PER_SECOND,
      changesPerSecondDone: round(total / changeSeconds, 1),
      pushesExpected: expected,
      pushesDelivered: received,
      duplicates,
      lost: Math.max(0, expected - received),
      // lost that no failure explains: what the bench would get wrong (pushes late past the wait, or a miscount)
      lostUnexplained: expected - received - owedByFailedPushes - postsFailed,
      delayMs: { p50: percentile(delays, 50), p90: percentile(delays, 90), p99: percentile(delays, 99), max: delays.at(-1) ?? 0 },
      storedToReceiptMs: { p50: percentile(pushDelays, 50), p99: percentile(pushDelays, 99) },
      // per change: reading its subscribers, then posting to all of them
      pushPhasesMs: { read: { p50: percentile(readTimes, 50), p99: percentile(readTimes, 99) }, post: { p50: percentile(postTimes, 50), p99: percentile(postTimes, 99) } },
      errors: { changes: changeErrors, sockets: socketErrors, postsFailed, pushesFailed, unmatched },
      warmup: {
        seconds: WARMUP_SECONDS,
        changes: warmCount,
        pushesExpected: warmup.expected,
        pushesDelivered: warmup.received,
        lost: Math.max(0, warmup.expected - warmup.received),
        changeErrors: warmChangeErrors,
        delayMs: { p50: percentile(warmup.delays, 50), p99: percentile(warmup.delays, 99), max: warmup.delays.at(-1) ?? 0 },
      },
      emulator,
      cpuShare,
    };
    const met = summary.lost === 0 && summary.warmup.lost === 0 && summary.delayMs.p99 < 1000;
    const markdown = [
      '# Live pushes (npm start, serverless-offline WebSockets, embedded store)',
      '',
      `${SOCKETS} sockets over every kind of scope (${summary.scopes}),`,
      `${CHANGES_PER_SECOND} room changes per second for ${SECONDS} s (one device's connection flipped, room recomputed, pushed).`,
      'Delay: from the start of the change (device write) to receipt by the socket.',
      `Measured after ${WARMUP_SECONDS} s of the same load (the warm-up, below): the emulator, the store and this process start cold.`,
      '',
      '| pushes expected | delivered | lost | p50 ms | p90 ms | p99 ms | max ms | errors | target (nothing lost, p99 < 1 s) |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      `| ${expected} | ${received} | ${summary.lost} | ${summary.delayMs.p50} | ${summary.delayMs.p90} | ${summary.delayMs.p99} | ${summary.delayMs.max} | ${changeErrors + socketErrors + postsFailed + pushesFailed} | ${met ? 'met' : 'NOT met'} |`,
      '',
      `Warm-up (${WARMUP_SECONDS} s, ${warmCount} changes, not in the table): ${summary.warmup.pushesDelivered} of ${summary.warmup.pushesExpected} pushes delivered (${summary.warmup.lost} lost), delay p50 ${summary.warmup.delayMs.p50} / p99 ${summary.warmup.delayMs.p99} / max ${summary.warmup.delayMs.max} ms.`,
      '',
      `From the room's write (the message's \`at\`) to receipt, the push alone: p50 ${summary.storedToReceiptMs.p50} ms, p99 ${summary.storedToReceiptMs.p99} ms;`,
      `per change, reading its subscribers p50 ${summary.pushPhasesMs.read.p50} / p99 ${summary.pushPhasesMs.read.p99} ms, then posting to all of them p50 ${summary.pushPhasesMs.post.p50} / p99 ${summary.pushPhasesMs.post.p99} ms.`,
      `Sockets connected in ${summary.connectSeconds} s; changes ran at ${summary.changesPerSecondDone}/s; ${stored} of ${total} changes were stored (${changeErrors} failed against the store; the rest found their room already recomputed by a concurrent change, nothing to push).`,
      `Pushes expected are those owed for the changes stored; delivered counts each (socket, room, change) once; lost = expected - delivered; ${duplicates} duplicate receipts (a post retried after its answer came late) and ${unmatched} pushes of changes this bench did not make are not counted.`,
      `Errors: ${changeErrors} changes refused by the store, ${pushesFailed} changes whose push failed as a whole (subscriber read, owing ${owedByFailedPushes} pushes), ${postsFailed} posts failed, ${socketErrors} socket errors;`,
      `lost pushes no failure explains: ${summary.lostUnexplained} (pushes are awaited by their change, so a push not received 5 s after the last change was not delivered).`,
      `CPU used during the changes, in cores: serverless-offline (HTTP API, WebSocket server, @connections) ${cpuShare.offline ?? 'unknown'}, npm start with the embedded store ${cpuShare.npmStartWithStore ?? 'unknown'}, this process (the writer, the push, 500 sockets) ${cpuShare.benchProcess}.`,
      `Machine load average (1 min) ${summary.loadAverage.atStart} at the start, ${summary.loadAverage.atEnd} at the end, on ${cpus().length} cores.`,
      '',
      `The emulator's ceiling on the same sockets (${EMULATOR_POSTS} posts, 32 in parallel, load ${emulator.loadAverage}):`,
      `trivial keep-alive client ${emulator.trivialClient.perSecond} posts/s (${emulator.trivialClient.cpuMsPerPost} ms CPU per post here, ${emulator.trivialClient.failed} failed);`,
      `the push adapter (SigV4-signed) ${emulator.pushAdapter.perSecond} posts/s (${emulator.pushAdapter.cpuMsPerPost} ms CPU per post, ${emulator.pushAdapter.failed} failed).`,
      `The run above needed ${round(expected / SECONDS)} posts/s.`,
    ].join('\n');
    reportResult('live', summary, markdown);
  } finally {
    await instance.stop();
  }
};

runWhenMain(module, runLiveBench);
