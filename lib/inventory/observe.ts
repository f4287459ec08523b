import * as connectivity from '#lib/devices/repository/connectivity';
import { devices } from '#lib/devices/repository/devices';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import { openWatchersHint, uniquePlaces, type Place, type StoredDevice } from '#lib/devices/types';
import { NotFound } from '#lib/shared/errors';
import { mapConcurrent } from '#lib/shared/concurrency';
import { rollupBeforeWrite } from '#lib/rollups/availability';
import { recountRooms } from '#lib/rollups/recount';
import { historyExpiry } from '#lib/shared/retention';

/** One thing a vendor said about a device's connectivity, and when it was true (a pushed event's time, a poll's). */
export interface ConnectivityObservation {
  devicesn: string;
  connected: boolean;
  /** ISO 8601: when the vendor saw it so (not when we learnt it). */
  at: string;
  source: 'event' | 'poll';
  /** Where the device is stored, when the caller knows (the vendor room directory): read there consistently first. */
  place?: Place;
}

export interface ConnectivityOutcome {
  /** Devices whose stored connectivity now stands on one of these observations (changed or confirmed). */
  applied: string[];
  /** Devices that hold a newer observation already (or as new: a duplicate): left as they were. */
  stale: string[];
  /** Serial numbers not stored. */
  unknown: string[];
}

/** Devices worked on at once; one device's observations are applied one after the other, oldest first. */
const DEVICES_IN_FLIGHT = 8;

const isoTime = (at: string): string => {
  const time = Date.parse(at);
  if (!Number.isFinite(time)) throw new Error(`a connectivity observation's time is not a date: ${JSON.stringify(at)}`);
  return new Date(time).toISOString();
};

type Outcome = 'applied' | 'stale';

/**
 * The device as the table holds it: at the place the caller names, read consistently (a device a
 * sync has just written may not be in the serial index yet), else wherever the index says; none
 * when it is not stored.
 */
const locate = async (devicesn: string, place: Place | undefined): Promise<StoredDevice | undefined> => {
  if (place) {
    const [stored] = await devices.at([{ devicesn, place }]);
    if (stored) return stored;
  }
  return devices.current(devicesn).catch((error: unknown) => {
    if (error instanceof NotFound) return undefined;
    throw error;
  });
};

/** How often one observation is judged again after another writer of its device came first. */
const ATTEMPTS = 10;

/**
 * The one write path of observed connectivity (pushed events, status polls), written as a refresh
 * writes (lib/inventory/refresh.ts): the connectivity history, the evaluation queue entry before
 * the device write and again after it, the device's `connected` alone (its other fields stay as
 * the last sync or refresh stored them), then the rooms' counts. An observation is applied only
 * when it is newer than what the device holds (the last pushed or polled observation, or a
 * refresh): an older one arriving late, or the same one twice, changes nothing. A device appears
 * once in the answer: applied when any of its observations was, else stale, or unknown.
 */
export const applyConnectivity = async (observations: readonly ConnectivityObservation[]): Promise<ConnectivityOutcome> => {
  const bySerial = new Map<string, { connected: boolean; at: string }[]>();
  const placed = new Map<string, Place>();
  for (const { devicesn, connected, at, place } of observations) {
    const list = bySerial.get(devicesn) ?? [];
    list.push({ connected, at: isoTime(at) });
    bySerial.set(devicesn, list);
    if (place) placed.set(devicesn, place);
  }
  const outcome: ConnectivityOutcome = { applied: [], stale: [], unknown: [] };
  const touched: Place[] = [];
  await mapConcurrent([...bySerial], DEVICES_IN_FLIGHT, async ([devicesn, list]) => {
    const device = await locate(devicesn, placed.get(devicesn));
    if (!device) {
      outcome.unknown.push(devicesn);
      return;
    }
    let held = device;
    let observedAt = await devices.connectivityObservedAt(device);
    let applied = false;
    for (const observation of [...list].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
      for (let attempt = 1; observedAt === undefined || observation.at > observedAt; attempt++) {
        const { result, device: after } = await observe(held, observation);
        if (result === 'applied') {
          applied = true;
          observedAt = observation.at;
          if (after !== held) touched.push(after.details);
          held = after;
          break;
        }
        // another writer of this device came first: read what it stored and judge again, against it
        if (attempt === ATTEMPTS) break;
        const current = await devices.current(devicesn).catch(() => undefined);
        if (!current) break;
        held = current;
        observedAt = await devices.connectivityObservedAt(current);
      }
    }
    (applied ? outcome.applied : outcome.stale).push(devicesn);
  });
  if (touched.length > 0) await recountRooms(uniquePlaces(touched), rollupBeforeWrite);
  return outcome;
};

const observe = async (device: StoredDevice, observation: { connected: boolean; at: string }): Promise<{ result: Outcome; device: StoredDevice }> => {
  const { connected, at } = observation;
  if (device.status.connected === connected) {
    // nothing changes but the time the device's connectivity was last seen so: an older
    // observation of the other state arriving later must not rewind it (written only while the
    // device still holds that state)
    return { result: (await devices.storeConnectivity(device, at, false)) ? 'applied' : 'stale', device };
  }
  // a device that lost its connection is in no call; one that came back keeps what it held
  const after: StoredDevice = { ...device, status: { connected, inCallStatus: connected ? device.status.inCallStatus : 'NONE' } };
  await connectivity.record([{ devicesn: device.devicesn, at, connected, inCallStatus: after.status.inCallStatus }], historyExpiry);
  const work = [{ devicesn: device.devicesn, device: after, alarmWatchers: openWatchersHint(device) }];
  // queued before the write (a crash after it still leaves the work) and again after it, so that
  // the newest entry, the one the engine evaluates, is what is stored
  await evaluationQueue.addDevices(work);
  if (!(await devices.storeConnectivity(after, at, true))) {
    // a newer observation won the race: what it stored is what the engine must evaluate
    const current = await devices.current(device.devicesn).catch(() => undefined);
    if (current) await evaluationQueue.addDevices([{ devicesn: current.devicesn, device: current, alarmWatchers: openWatchersHint(current) }]);
    return { result: 'stale', device: current ?? device };
  }
  await evaluationQueue.addDevices(work);
  return { result: 'applied', device: after };
};
