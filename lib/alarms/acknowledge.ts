import * as alarms from '#lib/db/alarms';
import { NotFound } from '#lib/errors';
import { withSilences, type AlarmAnswer } from './query';
import { parseAlarmId } from './types';

const pairOf = (id: string) => {
  const pair = parseAlarmId(id);
  if (!pair) throw new NotFound(`Alarm ${id} not found`);
  return pair;
};

/** Acknowledges an open (pending or firing) alarm: 404 unknown, 409 no longer open. Acknowledging again replaces it. */
export const acknowledgeAlarm = async (id: string, by: string, comment?: string): Promise<AlarmAnswer> => {
  const acknowledgedAt = new Date().toISOString();
  const alarm = await alarms.acknowledge(pairOf(id), { acknowledgedAt, acknowledgedBy: by, ...(comment !== undefined ? { ackComment: comment } : {}) });
  return (await withSilences([alarm]))[0]!;
};

/** Removes the acknowledgement of an open alarm (also when it had none): 404 unknown, 409 no longer open. */
export const unacknowledgeAlarm = async (id: string): Promise<AlarmAnswer> => {
  const alarm = await alarms.acknowledge(pairOf(id), undefined);
  return (await withSilences([alarm]))[0]!;
};
