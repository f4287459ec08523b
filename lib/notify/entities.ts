import type { DeliveryView, Digest, Episode, NotificationType, StoredDelivery, Target, Channel } from '#lib/notify/types';
import type { Mail } from '#lib/alarms/types';
import type { ParentScope } from '#lib/alarms/pure/inhibition';
import type { InhibitedBy } from '#lib/watchers/types';
import { docRow, entity, someTexts, textList, texts } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';
import { shardKey } from '#lib/store/query';

/* What notifications store: deliveries (the delivery log), mails, repeat markers, live dashboards' tickets and connections. */
const notifications = 'Notifications';

/** The due index of deliveries still to attempt, sharded by delivery id (`shardKey`). */
export const DELIVERIES_DUE = 'DELIVERIES#DUE';
export const deliveryLogPk = (channelId: string) => `CHANNEL#${channelId}#DELIVERIES`;
export const deliveryDueSk = (at: string, id: string) => `${at}#${id}`;
export const deliveryLogKeys = (channelId: string, createdAt: string, id: string) => ({ GSI1PK: deliveryLogPk(channelId), GSI1SK: `${createdAt}#${id}` });

export const deliveryView = (item: Item): DeliveryView => ({
  deliveryId: String(item.deliveryId),
  type: item.notificationType as NotificationType,
  at: String(item.createdAt),
  attempts: Number(item.attempts ?? 0),
  status: item.status as DeliveryView['status'],
  ...(typeof item.lastResponseStatus === 'number' ? { lastResponseStatus: item.lastResponseStatus } : {}),
  ...someTexts(item, 'nextAttemptAt'),
});

export const DeliveryEntity = /* @__PURE__ */ entity({
  type: 'Delivery',
  key: (id: string) => ({ PK: `DELIVERY#${id}`, SK: 'DELIVERY' }),
  /** The stored delivery, with the due-index position it was read at (for a claim). */
  fromItem: (item): StoredDelivery & { dueKey?: string } => ({
    ...deliveryView(item),
    digest: item.digest as Digest,
    target: item.target as Target,
    ...someTexts(item, 'firstAttemptAt'),
    ...(typeof item.GSI2SK === 'string' ? { dueKey: item.GSI2SK } : {}),
  }),
});
dataModel: docRow(DeliveryEntity, {
  section: notifications, PK: '`DELIVERY#<deliveryId>`', SK: '`DELIVERY`', GSI1: 'channel targets only: `CHANNEL#<channelId>#DELIVERIES` / `<createdAt>#<deliveryId>`', GSI2: 'still to attempt only: `DELIVERIES#DUE#<shard(deliveryId)>` / `<nextAttemptAt>#<deliveryId>`',
  notes: '`deliveryId` (deterministic: digest + target), `notificationType, digest` (first 50 alarms + counts), `target` (`{kind: email, to}` or `{kind: channel, channelId}`), `status, attempts, firstAttemptAt, lastAttemptAt, lastResponseStatus, lastError, nextAttemptAt, deliveredAt, createdAt, expiresAt` (+30 days)',
});

export const RepeatMarkerEntity = /* @__PURE__ */ entity({
  type: 'RepeatMarker',
  key: (watcherId: string) => ({ PK: `REPEAT#${watcherId}`, SK: 'REPEAT' }),
  fromItem: (item) => (typeof item.slot === 'number' ? item.slot : undefined),
});
dataModel: docRow(RepeatMarkerEntity, { section: notifications, name: 'Repeat marker', PK: '`REPEAT#<watcherId>`', SK: '`REPEAT`', notes: '`slot` (last repeat slot stored), `at`' });

export const MaintenanceReleaseEntity = /* @__PURE__ */ entity({
  type: 'MaintenanceRelease',
  key: (windowId: string) => ({ PK: `RELEASE#${windowId}`, SK: 'RELEASE' }),
  fromItem: (item) => (typeof item.closedAt === 'number' ? item.closedAt : undefined),
});
dataModel: docRow(MaintenanceReleaseEntity, { section: notifications, name: 'Maintenance release marker', PK: '`RELEASE#<windowId>`', SK: '`RELEASE`', notes: '`closedAt` (ms: the end of the last opening whose held alarms were told), `at`' });

export const INHIBITIONS = 'INHIBITION';
/** A parent episode (docs/guide/rules/alarms.md "A parent episode is announced once and released once, from a marker per episode"): few at a time, in one partition, read whole by one consistent Query. */
const episodeNotes =
  '`key, watcherId, parent` (the watcher\'s `inhibitedBy`), `scope {region, location, room?}`, `since` (the episode\'s start), `announced?` (its digest stored), `releasedAt?` (its release begun); deleted once released';
export const InhibitionEpisodeEntity = /* @__PURE__ */ entity({
  type: 'InhibitionEpisode',
  key: (key: string) => ({ PK: INHIBITIONS, SK: `INHIBITION#${key}` }),
  fromItem: (item): Episode =>
    Object.assign(
      { key: String(item.key), watcherId: String(item.watcherId), parent: item.parent as InhibitedBy, scope: item.scope as ParentScope, since: String(item.since) },
      item.announced === true ? { announced: true } : {},
      typeof item.releasedAt === 'string' ? { releasedAt: item.releasedAt } : {},
    ),
});
dataModel: docRow(InhibitionEpisodeEntity, { section: notifications, name: 'Inhibition episode', PK: '`INHIBITION`', SK: '`INHIBITION#<watcherId>:<scope>`', notes: episodeNotes });

export const mails = 'Alarms, outbox, evaluator marker';
/** The outbox's index, sharded by mail id. */
export const OUTBOX = 'OUTBOX';
export const outboxIndexKeys = (id: string, storedAt: string) => ({ GSI1PK: shardKey(OUTBOX, id), GSI1SK: `${storedAt}#${id}` });
export const OutboxMailEntity = /* @__PURE__ */ entity({
  type: 'OutboxMail',
  key: (id: string) => ({ PK: `OUTBOX#${id}`, SK: 'MAIL' }),
  fromItem: (item): Mail & { storedAt: string } => ({
    id: String(item.id),
    to: textList(item.to),
    ...texts(item, 'subject', 'text'),
    ...someTexts(item, 'html'),
    storedAt: String(item.storedAt),
  }),
});
dataModel: docRow(OutboxMailEntity, { section: mails, name: 'Outbox mail', PK: '`OUTBOX#<mailId>`', SK: '`MAIL`', GSI1: '`OUTBOX#<shard(mailId)>` / `<storedAt>#<mailId>`', notes: '`id, to, subject, text, storedAt, expiresAt` (+30 days)' });

export const SentMailEntity = /* @__PURE__ */ entity({
  type: 'SentMail',
  key: (id: string) => ({ PK: `MAILSENT#${id}`, SK: 'SENT' }),
  fromItem: (item) => item,
});
dataModel: docRow(SentMailEntity, { section: mails, name: 'SES sent ledger', PK: '`MAILSENT#<mailId>`', SK: '`SENT`', notes: '`id, sentAt, expiresAt` (+30 days)' });


export const CHANNELS = 'CHANNEL';
export const ChannelEntity = /* @__PURE__ */ entity({
  type: 'Channel',
  key: (id: string) => ({ PK: CHANNELS, SK: `CHANNEL#${id}` }),
  /** Never reads the signing secret: only `secretOf` does. */
  fromItem: (item): Channel => {
    const common = texts(item, 'id', 'name', 'createdAt', 'updatedAt');
    return item.channelType === 'webhook'
      ? { ...common, type: 'webhook', url: String(item.url), format: item.format === 'slack' || item.format === 'teams' ? item.format : 'json' }
      : { ...common, type: 'email', emails: textList(item.emails) };
  },
});
dataModel: docRow(ChannelEntity, { section: 'Notifications', name: 'Channel', PK: '`CHANNEL`', SK: '`CHANNEL#<uuid>`',
  notes: '`id, name, channelType` (`email`/`webhook`), `emails` or `url, format`, `secret` (webhook; read only to sign), `version, createdAt, updatedAt`' });
