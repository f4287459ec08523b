import * as alarms from '#lib/db/alarms';
import type { AlarmView } from '#lib/db/alarms';
import { NotFound } from '#lib/errors';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import { areaWithinScope } from '#lib/shared/scopeWithin';
import { withSilences, type AlarmAnswer } from './query';
import { parseAlarmId, type Acknowledgement, type AlarmKey } from './types';

const notFound = (id: string) => new NotFound(`Alarm ${id} not found`);

const pairOf = (id: string) => {
  const pair = parseAlarmId(id);
  if (!pair) throw notFound(id);
  return pair;
};

/** Times a scoped acknowledgement reads the alarm again when its device moved between the read and the write. */
const MOVES_FOLLOWED = 3;

/**
 * Writes (or removes) the acknowledgement. The unscoped write at once, as before scopes. A scoped
 * caller (DESIGN §5) first reads the alarm: one whose device's place lies outside its scope is
 * 404, as if unknown; the write then holds only while the alarm is still at the place it checked.
 */
const acknowledgeWithin = async (id: string, ack: Acknowledgement | undefined, scope: AccessScope): Promise<AlarmView> => {
  const pair: AlarmKey = pairOf(id);
  if (isUnscoped(scope)) return alarms.acknowledge(pair, ack);
  for (let attempt = 0; attempt < MOVES_FOLLOWED; attempt++) {
    const alarm = await alarms.get(pair);
    if (!alarm || !areaWithinScope(scope, alarm)) throw notFound(id);
    const written = await alarms.acknowledgeAt(pair, ack, alarm);
    if (written) return written;
  }
  throw notFound(id); // moving faster than it can be acknowledged: not reliably in the scope
};

/** Acknowledges an open (pending or firing) alarm: 404 unknown or outside the scope, 409 no longer open. Acknowledging again replaces it. */
export const acknowledgeAlarm = async (id: string, by: string, comment?: string, scope: AccessScope = []): Promise<AlarmAnswer> => {
  const acknowledgedAt = new Date().toISOString();
  const alarm = await acknowledgeWithin(id, { acknowledgedAt, acknowledgedBy: by, ...(comment !== undefined ? { ackComment: comment } : {}) }, scope);
  return (await withSilences([alarm]))[0]!;
};

/** Removes the acknowledgement of an open alarm (also when it had none): 404 unknown or outside the scope, 409 no longer open. */
export const unacknowledgeAlarm = async (id: string, scope: AccessScope = []): Promise<AlarmAnswer> => {
  const alarm = await acknowledgeWithin(id, undefined, scope);
  return (await withSilences([alarm]))[0]!;
};
