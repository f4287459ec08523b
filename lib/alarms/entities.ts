import type { Severity } from '#lib/devices/types';
import { alarmId, type AckEvent, type Alarm, type AlarmKey as Pair, type EscalationEvent, type Notified, type OpenAlarm, type Recipients, type SuppressedBy } from '#lib/alarms/types';
import type { HistoryRecord } from '#lib/alarms/pure/history';
import type { Matchers, Silence as SilenceRecord } from '#lib/alarms/pure/silences';
import { docRow, entity, someTexts, textList, texts } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';
import { shardKey } from '#lib/store/query';
import { createHash } from 'node:crypto';

/* The alarm engine's items: alarms, their history, silences, the evaluation queue and its marker. */
const enc = encodeURIComponent;

/** The alarms' sharded index keys: GSI1 firing (`OPEN`, docs/adr/0321-persistence-layer-says-things-once.md), pending, awaiting history; GSI2 notices pending. */
export const ALARM_INDEX = { firing: 'ALARMS#OPEN', pending: 'ALARMS#PENDING', history: 'ALARMS#HISTORY', notices: 'ALARMS#NOTIFY' };
export const alarmIndexKeys = {
  firing: (alarm: Alarm) => ({ GSI1PK: shardKey(ALARM_INDEX.firing, alarmId(alarm)), GSI1SK: `${alarm.raisedAt}#${alarm.watcherId}#${alarm.devicesn}` }),
  pending: (alarm: OpenAlarm) => ({ GSI1PK: shardKey(ALARM_INDEX.pending, alarmId(alarm)), GSI1SK: `${alarm.firesAt ?? alarm.raisedAt}#${alarm.watcherId}#${alarm.devicesn}` }),
  history: (alarm: Pair, clearedAt: string) => ({ GSI1PK: shardKey(ALARM_INDEX.history, alarmId(alarm)), GSI1SK: `${clearedAt}#${alarm.watcherId}#${alarm.devicesn}` }),
  notices: (alarm: Pair) => ({ GSI2PK: shardKey(ALARM_INDEX.notices, alarmId(alarm)), GSI2SK: alarmId(alarm) }),
};

const ALARM = 'ALARM#';
const DEVICE = 'DEVICE#';
export const alarmPartition = (watcherId: string) => `${ALARM}${watcherId}`;
export const AlarmEntity = /* @__PURE__ */ entity({
  type: 'Alarm',
  key: (pair: Pair) => ({ PK: alarmPartition(pair.watcherId), SK: `${DEVICE}${pair.devicesn}` }),
  fromItem: (item): OpenAlarm => {
    const notify = (item.notify ?? {}) as Partial<Recipients>;
    const state = item.state === 'pending' ? 'pending' : 'firing';
    return {
      ...texts(item, 'watcherId', 'devicesn', 'deviceid'),
      severity: Number(item.severity) as Severity,
      ...texts(item, 'region', 'location', 'room', 'raisedAt'),
      state,
      notify: {
        sendEmail: notify.sendEmail === true,
        emails: textList(notify.emails),
        ...(Array.isArray(notify.channelIds) && notify.channelIds.length ? { channelIds: notify.channelIds.map(String) } : {}),
      },
      ...(item.description !== '' ? someTexts(item, 'description') : {}),
      ...someTexts(item, 'pendingSince', ...(state === 'pending' ? ['firesAt' as const] : [])),
      ...(typeof item.acknowledgedAt === 'string'
        ? { acknowledgement: { acknowledgedAt: item.acknowledgedAt, acknowledgedBy: String(item.acknowledgedBy), ...someTexts(item, 'ackComment', 'ackUntil') } }
        : {}),
      ...(Array.isArray(item.ackEvents) && item.ackEvents.length > 0 ? { ackEvents: item.ackEvents as AckEvent[] } : {}),
      ...(item.notified && typeof item.notified === 'object' ? { notified: item.notified as Notified } : {}),
      ...(item.suppressedBy && typeof item.suppressedBy === 'object' ? { suppressedBy: item.suppressedBy as SuppressedBy } : {}),
      ...(typeof item.escalationStep === 'number' ? { escalationStep: item.escalationStep } : {}),
      ...(Array.isArray(item.escalations) && item.escalations.length > 0 ? { escalations: item.escalations as EscalationEvent[] } : {}),
      ...(item.escalationHeld === true ? { escalationHeld: true as const } : {}),
      ...(Array.isArray(item.flips) && item.flips.length > 0 ? { flips: textList(item.flips) } : {}),
      ...someTexts(item, 'escalationFrom', 'flappingSince', 'quietSince'),
    };
  },
});
dataModel: docRow(AlarmEntity, {
  section: 'Alarms, outbox, evaluator marker',
  name: 'Alarm',
  PK: '`ALARM#<watcherId>`',
  SK: '`DEVICE#<sn>`',
  GSI1: 'firing: `ALARMS#OPEN#<shard(pair)>` / `<raisedAt>#<watcherId>#<sn>`; pending: `ALARMS#PENDING#<shard(pair)>` / `<firesAt>#<watcherId>#<sn>`; cleared, history not yet written: `ALARMS#HISTORY#<shard(pair)>` / `<clearedAt>#<watcherId>#<sn>`',
  GSI2: 'notices pending only: `ALARMS#NOTIFY#<shard(pair)>` / `<watcherId>:<sn>`',
  notes:
    '`state` (`pending`/`firing`/`cleared`/`dropped`), `watcherId, devicesn, deviceid, severity, region, location, room, raisedAt, pendingSince?, firesAt?, description?, notify {sendEmail, emails, channelIds?}`, `acknowledgedAt?, acknowledgedBy?, ackComment?, ackUntil?`, `ackEvents?` (ack/unack of this alarm: action, at, by, comment?, ackUntil?, lapsed?; at most 50), `notified {raised?, cleared?}` (recipients or `suppressed`), `suppressedBy? {condition, …, region, location, room?, since}` (raised while a parent condition held, removed by its release), `escalationStep?, escalations? [{step, at}], escalationFrom?, escalationHeld?` (escalation reached, and its clock after a hold), `flips?` (fire/clear instants of the pair within the flapping window, kept across its alarms), `flappingSince?, quietSince?` (flapping), `clearedAt, clearReason, expiresAt` (cleared/dropped: + `ALARM_HISTORY_DAYS`), `pendingNotices` (transitions not yet in a stored digest, lib/notify)',
});
export const pairOfKey = (key: Item): Pair => ({ watcherId: String(key.PK).slice(ALARM.length), devicesn: String(key.SK).slice(DEVICE.length) });

const lifecycle = 'Alarm lifecycle, history, device connectivity';
export const SILENCES = 'SILENCE';
export const SILENCES_BY_END = 'SILENCES#BY_END';
export const SilenceEntity = /* @__PURE__ */ entity({
  type: 'Silence',
  key: (id: string) => ({ PK: SILENCES, SK: `SILENCE#${id}` }),
  fromItem: (item): SilenceRecord => ({
    id: String(item.id),
    matchers: item.matchers as Matchers,
    ...texts(item, 'startsAt', 'endsAt', 'comment', 'createdBy', 'createdAt'),
    ...someTexts(item, 'endedAt'),
  }),
});
dataModel: docRow(SilenceEntity, { section: lifecycle, PK: '`SILENCE`', SK: '`SILENCE#<uuid>`', GSI1: '`SILENCES#BY_END` / `<endsAt>#<id>`',
  notes: '`id, matchers {region?, location?, room?, devicesn?, watcherId?}, startsAt, endsAt, comment, createdBy, createdAt, endedAt?`; `expiresAt` = endsAt + retention' });
export const silenceEndSk = (silence: Pick<SilenceRecord, 'endsAt' | 'id'>) => `${silence.endsAt}#${silence.id}`;

/** The partitions of alarm history: per device, room, watcher, location; region and everything sharded by pair. */
const placeOf = (record: Pick<HistoryRecord, 'region' | 'location'>) => `${enc(record.region)}#${enc(record.location)}`;
export const historyPk = {
  device: (devicesn: string) => `ALARMHIST#DEVICE#${enc(devicesn)}`,
  room: (place: Pick<HistoryRecord, 'region' | 'location' | 'room'>) => `ALARMHIST#ROOM#${placeOf(place)}#${enc(place.room)}`,
  watcher: (watcherId: string) => `ALARMHIST#WATCHER#${watcherId}`,
  location: (place: Pick<HistoryRecord, 'region' | 'location'>) => `ALARMHIST#LOCATION#${placeOf(place)}`,
  region: (region: string) => `ALARMHIST#REGION#${enc(region)}`,
  all: () => 'ALARMHIST#ALL',
};
const HISTORY_FIELDS = [
  'id', 'watcherId', 'severity', 'devicesn', 'deviceid', 'region', 'location', 'room', 'raisedAt', 'clearedAt', 'reason',
  'durationSeconds', 'description', 'acknowledgedAt', 'acknowledgedBy', 'ackComment', 'notified', 'ackUntil', 'acknowledgements',
  'escalationStep', 'escalations', 'flappingSince',
] as const;
const historyRecord = (item: Item): HistoryRecord =>
  Object.fromEntries(HISTORY_FIELDS.filter((field) => item[field] !== undefined).map((field) => [field, item[field]])) as unknown as HistoryRecord;
const HISTORY_NOTES = 'the whole record: `id, watcherId, severity, devicesn, deviceid, region, location, room, raisedAt, clearedAt, reason, durationSeconds, description?, acknowledged*?, notified, ackUntil?, acknowledgements?` (the alarm\'s ack/unack events), `escalationStep?, escalations?, flappingSince?`';
export const HistoryByDeviceEntity = /* @__PURE__ */ entity({
  type: 'AlarmHistory',
  key: (record: HistoryRecord) => ({
    PK: historyPk.device(record.devicesn),
    SK: `${record.clearedAt}#${record.watcherId}`,
    GSI1PK: historyPk.room(record),
    GSI1SK: `${record.clearedAt}#${record.watcherId}#${enc(record.devicesn)}`,
    GSI2PK: historyPk.watcher(record.watcherId),
    GSI2SK: `${record.clearedAt}#${enc(record.devicesn)}`,
  }),
  fromItem: historyRecord,
});
dataModel: docRow(HistoryByDeviceEntity, {
  section: lifecycle, name: 'Alarm history, by device', PK: '`ALARMHIST#DEVICE#<sn>`', SK: '`<clearedAt>#<watcherId>`', GSI1: '`ALARMHIST#ROOM#<room>` / `<clearedAt>#<watcherId>#<sn>`', GSI2: '`ALARMHIST#WATCHER#<watcherId>` / `<clearedAt>#<sn>`',
  notes: HISTORY_NOTES,
});
export const HistoryByPlaceEntity = /* @__PURE__ */ entity({
  type: 'AlarmHistory',
  key: (record: HistoryRecord) => {
    const sk = `${record.clearedAt}#${record.watcherId}#${enc(record.devicesn)}`;
    return {
      PK: historyPk.location(record),
      SK: sk,
      GSI1PK: shardKey(historyPk.region(record.region), alarmId(record)),
      GSI1SK: sk,
      GSI2PK: shardKey(historyPk.all(), alarmId(record)),
      GSI2SK: sk,
    };
  },
  fromItem: historyRecord,
});
dataModel: docRow(HistoryByPlaceEntity, {
  section: lifecycle, name: 'Alarm history, by place', PK: '`ALARMHIST#LOCATION#<enc(region)>#<enc(location)>`', SK: '`<clearedAt>#<watcherId>#<sn>`', GSI1: '`ALARMHIST#REGION#<enc(region)>#<shard(watcherId:sn)>` / same', GSI2: '`ALARMHIST#ALL#<shard(watcherId:sn)>` / same',
  notes: 'the same record again',
});

const queue = 'Evaluation queue and incremental state';
/** The evaluation queue's partitions, sharded by device serial number or watcher id. */
export const QUEUE = 'EVALQ';
export const QueuedDevicesEntity = /* @__PURE__ */ entity({
  type: 'QueuedEvaluation',
  /** Devices of one shard queued together; `token` orders them. */
  key: ({ shardOf, token }: { shardOf: string; token: string }) => ({ PK: shardKey(QUEUE, shardOf), SK: `D#${token}` }),
  fromItem: (item) => item,
});
dataModel: docRow(QueuedDevicesEntity, { section: queue, name: 'Queued devices', PK: '`EVALQ#<shard(sn)>`', SK: '`D#<token>`',
  notes: '`devices` (up to 64 of that shard queued together, same `notBefore`: each `devicesn`, `device` (as the change wrote it; absent: vanished), `alarmWatchers` (list, or `any`), `notBefore?`), `queuedAt`, `claimed?` (the run that began on it)' });
export const QueuedWatcherEntity = /* @__PURE__ */ entity({
  type: 'QueuedEvaluation',
  key: ({ watcherId, token }: { watcherId: string; token: string }) => ({ PK: shardKey(QUEUE, watcherId), SK: `W#${watcherId}#${token}` }),
  fromItem: (item) => item,
});
dataModel: docRow(QueuedWatcherEntity, { section: queue, name: 'Queued watcher', PK: '`EVALQ#<shard(id)>`', SK: '`W#<id>#<token>`', notes: '`watcherId`, `queuedAt`' });
/** The token of a queue entry's sort key (`D#<token>`, `W#<id>#<token>`): its order among the entries of one subject. */
export const queueTokenOf = (sk: string): string => sk.slice(sk.lastIndexOf('#') + 1);
export const ReconciliationEntity = /* @__PURE__ */ entity({
  type: 'AlarmReconciliation',
  key: (_: void) => ({ PK: 'ALARM_EVALUATOR', SK: 'RECONCILED' }),
  fromItem: (item) => Number(item.lastFullRunAt ?? 0),
});
dataModel: docRow(ReconciliationEntity, { section: queue, name: 'Reconciliation marker', PK: '`ALARM_EVALUATOR`', SK: '`RECONCILED`', notes: '`lastFullRunAt` (epoch ms of the last complete full pass)' });


/* When an acknowledgement with `ackUntil` lapses (docs/guide/rules/alarms.md "An ackUntil lapses once: a timer item, a fixed reminder id and a conditional removal"). */

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
