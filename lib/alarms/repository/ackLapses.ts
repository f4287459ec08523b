import { ACK_LAPSES, AckLapseEntity, type AckLapse } from '#lib/alarms/entities';
import { dueBy, queryShards } from '#lib/store/query';
import { apart } from '#lib/store/transaction';

// Timers of `ackUntil`, so an acknowledgement lapses when it says, written before the acknowledgement they time (a stale one the notifier deletes);
// the due ones read from the table itself, consistent, never an index, whose copies lag (DESIGN §3).

export const schedule = async (lapse: AckLapse): Promise<void> => {
  // the timer is put before the acknowledgement it times, apart from it
  await apart(() => AckLapseEntity.put(lapse, { ...lapse, expiresAt: Math.floor(Date.parse(lapse.ackUntil) / 1000) + 30 * 24 * 60 * 60 }));
};

/** The lapses whose `ackUntil` is at or before `now`, oldest first. */
export const due = async (now: string): Promise<AckLapse[]> =>
  (await queryShards(ACK_LAPSES, { sk: dueBy(now), consistent: true }))
    .map(AckLapseEntity.fromItem)
    .sort((a, b) => a.ackUntil.localeCompare(b.ackUntil));

export const done = async (lapse: AckLapse): Promise<void> => {
  await AckLapseEntity.remove(lapse);
};
