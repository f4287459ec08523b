import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEvaluation } from '#lib/alarms/engine/run';
import { HEARTBEAT_MS, LEASE_MS, withLease } from '#lib/alarms/engine/lease';
import { outboxMailer } from '#lib/adapters/mail';
import { repairAfterRestart } from '#lib/alarms/engine/repair';
import { alarmRuns } from '#lib/store/leases';
import * as alarms from '#lib/alarms/repository/alarms';
import * as rooms from '#lib/rollups/repository/rooms';
import * as watchers from '#lib/watchers/repository';
import { syncDevices } from '#lib/inventory/sync';
import { device, fixed, offlineWatcher } from '../support/fleet';

const root = resolve(__dirname, '..', '..');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TAKEOVER_BOUND_MS = 15_000;

describe('evaluator lease', () => {
  it('is short enough that a holder that stopped renewing is taken over within 15 s', async () => {
    expect(LEASE_MS + HEARTBEAT_MS).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    const now = Date.now();
    expect(await alarmRuns.acquire('dead-run', now, now + LEASE_MS)).toBe(true);
    expect((await runEvaluation({ mailer: outboxMailer(), mode: 'forced' })).ran).toBe(false);
    // nobody renews: once LEASE_MS has passed, the next run takes over
    expect(await alarmRuns.acquire('next-run', now + LEASE_MS - 1, now + 2 * LEASE_MS)).toBe(false);
    expect(await alarmRuns.acquire('next-run', now + LEASE_MS + 1, now + 2 * LEASE_MS)).toBe(true);
    await alarmRuns.release('next-run', now);
  });

  it('is renewed by its holder while the run lasts, so a long run is never taken over', async () => {
    const intruderAt: boolean[] = [];
    const held = await withLease(async ({ holding }) => {
      await pause(LEASE_MS + HEARTBEAT_MS);
      intruderAt.push(await alarmRuns.acquire('intruder', Date.now(), Date.now() + LEASE_MS));
      return holding();
    });
    expect(held).toBe(true);
    expect(intruderAt).toEqual([false]);
    // released at the end: the next run starts at once
    expect((await runEvaluation({ mailer: outboxMailer(), mode: 'forced' })).ran).toBe(true);
  }, 30_000);
});

describe('a run killed with SIGKILL mid-evaluation', () => {
  const region = `CRASH-${Date.now().toString(36)}`;
  const fleet = [1, 2, 3, 4].map((i) => device(region, `${region}-${i}`, `Room ${i}`, i % 2 === 0));
  const provider = fixed(() => fleet);
  /** Rooms of the region whose stored status is not what their open alarms say. */
  const disagreeing = async () => {
    const open = (await alarms.open()).filter((alarm) => alarm.region === region);
    return (await rooms.inPlace({ region })).filter((room) => {
      const worst = open.filter((alarm) => alarm.room === room.room).map((alarm) => alarm.severity);
      return room.roomStatus !== (worst.length ? 'Critical' : 'OK');
    });
  };

  it('leaves room statuses that reconcile with the open alarms within 15 s of the restart, and the evaluator free', async () => {
    await syncDevices(provider);
    await watchers.create(offlineWatcher(region, 'ops@example.com', { severity: 1, sendEmail: false, emails: [] }));

    // one process (tsx as a loader, not its CLI, which would run the script in a child of its own)
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/evaluation-child.ts'], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((halted, failed) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('HALTED') && halted());
      child.once('exit', (code) => failed(new Error(`the evaluation exited (${code}) before reaching its severity writes`)));
    });
    child.kill('SIGKILL');
    // the crash left alarms open in rooms that still say OK
    expect((await alarms.open()).filter((alarm) => alarm.region === region)).toHaveLength(2);
    expect(await disagreeing()).toHaveLength(2);

    const restartedAt = Date.now();
    const summary = await repairAfterRestart(250);
    expect(Date.now() - restartedAt).toBeLessThan(TAKEOVER_BOUND_MS);
    expect(summary).toEqual({ devicesFixed: 2, roomsRecomputed: 2 });
    expect(await disagreeing()).toEqual([]);
    expect((await runEvaluation({ mailer: outboxMailer(), mode: 'forced' })).ran).toBe(true);
  }, 60_000);
});
