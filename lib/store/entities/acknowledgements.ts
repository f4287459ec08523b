import { createHash } from 'node:crypto';
import type { Alarm } from '#lib/alarms/types';
import { docRow, entity, texts } from '../entity';
import { shardKey } from '../query';

/* When an acknowledgement with `ackUntil` lapses (docs/guide/rules/alarms.md "An ackUntil lapses once: a timer item, a fixed reminder id and a conditional removal"). */
type Pair = Pick<Alarm, 'watcherId' | 'devicesn'>;

/** One lapse due: the acknowledgement (by its `acknowledgedAt`) of one alarm, and when it lapses. */
export interface AckLapse extends Pair {
  acknowledgedAt: string;
  ackUntil: string;
}

/** The lapses' partitions, sharded by pair; the sort key starts with `ackUntil`, so the due ones are one key condition. */
export const ACK_LAPSES = 'ACKLAPSE';
const notes = '`watcherId, devicesn, acknowledgedAt, ackUntil`: written before the acknowledgement it times; deleted once told (or found stale); `expiresAt` = ackUntil + 30 days';
export const AckLapseEntity = /* @__PURE__ */ entity({
  type: 'AckLapse',
  key: (lapse: AckLapse) => ({
    PK: shardKey(ACK_LAPSES, `${lapse.watcherId}:${lapse.devicesn}`),
    // the pair hashed: a device serial of up to 400 characters must not push the sort key past 1024 bytes
    SK: `${lapse.ackUntil}#${createHash('sha256').update(`${lapse.watcherId}:${lapse.devicesn}`).digest('hex').slice(0, 32)}#${lapse.acknowledgedAt}`,
  }),
  fromItem: (item): AckLapse => texts(item, 'watcherId', 'devicesn', 'acknowledgedAt', 'ackUntil'),
});
dataModel: docRow(AckLapseEntity, { section: 'Alarm lifecycle, history, device connectivity', name: 'Acknowledgement lapse', PK: '`ACKLAPSE#<shard(watcherId:sn)>`', SK: '`<ackUntil>#<sha256(watcherId:sn), 32 hex>#<acknowledgedAt>`', notes });
