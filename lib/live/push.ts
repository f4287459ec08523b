import { withSilences } from '#lib/alarms/query';
import { onStored, type StoredChange } from '#lib/alarms/repository/changes';
import * as liveConnections from '#lib/live/repository/connections';
import type { Subscriber } from '#lib/live/repository/connections';
import { placeInAccessScope } from '#lib/shared/access';
import { mapConcurrent } from '#lib/shared/concurrency';
import { isDeadlineExceeded } from '#lib/shared/deadline';
import type { Place } from '#lib/devices/types';
import { logger } from '#lib/shared/log';
import { recordWork } from '#lib/shared/metrics';
import { messageOf } from './messages';
import { sharedReads } from './reads';
import { filterScopeKeysOf } from './scope';
import type { Connections, LiveMessage } from './types';

/*
 * Pushes every stored room or alarm change to the connections whose scope holds its room
 * (one seam: repositories announce what they stored, docs/adr/0102-live-one-seam.md). Cost per change: one Query per scope key containing the room
 * (at most 8; changes stored while a key is being read share its next read, lib/live/reads.ts)
 * and one PostToConnection per subscriber, in parallel: O(connections in scope). A connection
 * opened by a scoped principal hears only of rooms within that principal's scope (its
 * subscription carries it). The posts go through `Connections` (lib/adapters/connections.ts), wired in by the functions.
 */
const IN_FLIGHT = 32;
const subscribersOf = sharedReads((scopeKey) => liveConnections.subscribersOf(scopeKey));

interface PushResult {
  subscribers: number;
  delivered: number;
  gone: number;
  failed: number;
  /** How long finding the subscribers took, and then posting to them (ms). */
  readMs: number;
  postMs: number;
}

/**
 * Sends one message to every subscriber of the scopes holding `place` whose own scope holds it
 * too; forgets the ones that are gone. `message` may be a function: it is then only built when
 * somebody is subscribed.
 */
export const pushTo = async (connections: Connections, place: Place, message: unknown): Promise<PushResult> => {
  const began = Date.now();
  const subscribers = (await Promise.all(filterScopeKeysOf(place).map(subscribersOf))).flat().filter((subscriber) => placeInAccessScope(subscriber.access ?? [], place));
  const read = Date.now();
  const result: PushResult = { subscribers: subscribers.length, delivered: 0, gone: 0, failed: 0, readMs: read - began, postMs: 0 };
  if (subscribers.length === 0) return result;
  const data = JSON.stringify(typeof message === 'function' ? await (message as () => Promise<unknown>)() : message);
  await mapConcurrent(subscribers, IN_FLIGHT, async (subscriber: Subscriber) => {
    const { connectionId } = subscriber;
    try {
      if ((await connections.post(connectionId, data)) === 'sent') {
        result.delivered++;
        return;
      }
      result.gone++;
      await liveConnections.close(connectionId, subscriber);
    } catch (error) {
      result.failed++;
      logger.warn('live push failed', { connectionId, error: error instanceof Error ? error.message : String(error) });
    }
  });
  result.postMs = Date.now() - read;
  return result;
};

const enabled = new Set<Connections>();

const placeOf = (change: StoredChange): Place => (change.kind === 'room' ? change.room : change.alarm);

/**
 * The message of a change. Alarms are sent as GET /alarms answers them, `silencedBy` included:
 * the silence events know it; for the others it is read from the silences current now (one
 * Query of the few current ones, and only when somebody is subscribed).
 */
const messageFor = async (change: StoredChange): Promise<LiveMessage> => {
  if (change.kind !== 'alarm' || change.alarm.silencedBy) return messageOf(change);
  const [answered] = await withSilences([change.alarm]);
  const maintenance = answered?.inMaintenance ? { inMaintenance: answered.inMaintenance } : {};
  return messageOf({ ...change, alarm: { ...change.alarm, silencedBy: answered?.silencedBy ?? [], silencedByCount: answered?.silencedByCount ?? 0, ...maintenance } });
};

/**
 * Subscribes the push to every change this process stores, when live updates are configured
 * (`connections`: lib/adapters/connections.ts `connectionsFromEnv()`, from LIVE_PUSH_ENDPOINT).
 * Called once by each function that writes room aggregates, alarms or silences, and by
 * `npm start` for its local sync and evaluator. `observe` hears each change's outcome (benchmarks).
 */
export const enableLivePush = (connections: Connections | undefined, observe?: (outcome: PushResult | Error, change: StoredChange) => void): boolean => {
  if (!connections || enabled.has(connections)) return Boolean(connections);
  enabled.add(connections);
  onStored(async (change) => {
    try {
      const result = await pushTo(connections, placeOf(change), () => messageFor(change));
      observe?.(result, change);
      if (result.subscribers > 0) {
        await recordWork('live', { PushesSent: result.delivered, ConnectionsGone: result.gone, PushesFailed: result.failed });
      }
    } catch (error) {
      observe?.(error instanceof Error ? error : new Error(String(error)), change);
      // the change is stored; a dashboard that missed it catches up on its next snapshot
      // (a run's deadline cutting the push short is expected under a slow store: a warning)
      if (isDeadlineExceeded(error)) logger.warn('live push failed', { kind: change.kind, error: error instanceof Error ? error.message : String(error) });
      else logger.error('live push failed', { kind: change.kind, error: error instanceof Error ? error.message : String(error) });
    }
  });
  return true;
};
