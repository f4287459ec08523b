import { ACK_LAPSES, AckLapseItem, type AckLapse } from '#lib/store/entities/acknowledgements';
import { expr } from '#lib/store/expression';
import { queryShards } from '#lib/store/query';

/*
 * The timers of acknowledgements with `ackUntil` (issue 28 item 3). A timer is written before the
 * acknowledgement it times, so an acknowledgement never lacks one; a timer whose acknowledgement
 * never landed, was replaced or removed is stale: the notifier finds it so and deletes it. The due
 * ones are read from the table itself (consistent, never an index: DESIGN §3).
 */
export type { AckLapse };

const DAY_S = 24 * 60 * 60;

export const schedule = async (lapse: AckLapse): Promise<void> => {
  await AckLapseItem.put(lapse, { ...lapse, expiresAt: Math.floor(Date.parse(lapse.ackUntil) / 1000) + 30 * DAY_S });
};

/** The lapses whose `ackUntil` is at or before `now`, oldest first. */
export const due = async (now: string): Promise<AckLapse[]> =>
  (await queryShards(ACK_LAPSES, { sk: expr('#sk <= :now', { now: `${now}#\uffff` }), consistent: true }))
    .map(AckLapseItem.fromItem)
    .sort((a, b) => a.ackUntil.localeCompare(b.ackUntil));

export const done = async (lapse: AckLapse): Promise<void> => {
  await AckLapseItem.remove(lapse);
};
