import { onTestFinished, vi } from 'vitest';
import { outboxMailer } from '#lib/adapters/mail';
import { queuePass } from '#lib/alarms/engine/queuePass';
import type { Mail } from '#lib/notify/mail/types';
import * as alarms from '#lib/alarms/repository/alarms';
import * as outbox from '#lib/notify/mail/repository';
import type { ProviderDevice } from '#lib/devices/types';
import { syncDevices } from '#lib/inventory/sync';
import { notifier } from '#lib/notify/notifier';
import { device, fixed, unique } from './fleet';

/* What the engine tests with a controllable clock share: a pass, a notifier run, the mails, a fleet of one location. */

const soon = () => Date.now() + 30_000;
/** One queue pass of the evaluator. */
export const run = () => queuePass({ mailer: outboxMailer(), deadline: soon() });
/** One notifier run. */
export const tell = () => notifier({ mailer: outboxMailer(), deadline: soon() }).run();
export const mailsTo = async (email: string) => (await outbox.list(email, {})) as Mail[];
export const firing = async (watcherId: string) => (await alarms.openOf(watcherId)).filter((alarm) => alarm.state === 'firing');

/** `Date` under the test's control (real again when the test ends): the instant `offset` ms after it started. */
export const controlledClock = () => {
  const start = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => void vi.useRealTimers());
  return { start, at: (offset: number) => vi.setSystemTime(start + offset) };
};

/** `devices` synced and evaluated, all online; `sync(offline)` takes the listed serial numbers offline (the rest online). */
export const fleetOf = async (devices: readonly ProviderDevice[]) => {
  let fleet = [...devices];
  const sync = async (offline: readonly string[]) => {
    fleet = fleet.map((d) => ({ ...d, status: { ...d.status, connected: !offline.includes(d.devicesn) } }));
    await syncDevices(fixed(() => fleet));
  };
  await sync([]);
  await run();
  return sync;
};

/** `count` online devices of a new region's one location (a room each), synced and evaluated; `sync(offline)` takes the listed ones offline (the rest online). */
export const locationFleet = async (count: number) => {
  const region = unique('R');
  const sync = await fleetOf(Array.from({ length: count }, (_, i) => device(region, `${region}-${i}`, `Room ${i}`, true)));
  return { region, sync: (offline: readonly number[]) => sync(offline.map((i) => `${region}-${i}`)) };
};
