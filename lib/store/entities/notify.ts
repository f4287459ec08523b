import { createHash } from 'node:crypto';
import type { DeliveryView, Digest, Episode, NotificationType, StoredDelivery, Target } from '#lib/notify/types';
import type { Mail } from '#lib/alarms/types';
import type { ParentScope } from '#lib/alarms/pure/inhibition';
import type { InhibitedBy } from '#lib/watchers/types';
import { docRow, entity, someTexts, textList, texts } from '../entity';
import type { Item } from '../expression';
import { shardKey } from '../query';

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

const mails = 'Alarms, outbox, evaluator marker';
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

/** A lease and pacing marker of background work (lib/db/leases.ts). */
const marker = (name: string, PK: string, type: string, notes: string) => {
  const declared = entity({ type, key: (_: void) => ({ PK, SK: 'STATE' }), fromItem: (item) => item });
  dataModel: docRow(declared, { section: mails, name, PK: `\`${PK}\``, SK: '`STATE`', notes });
  return declared;
};
export const EvaluatorMarker = marker('Evaluator marker', 'ALARM_EVALUATOR', 'AlarmEvaluator', '`lastRunAt` (epoch ms of the last start), `leaseUntil`, `runId`');
export const SyncMarker = marker(
  'Sync marker',
  'DEVICE_SYNC',
  'DeviceSync',
  "`lastRunAt` (epoch ms of the last start), `leaseUntil`, `runId` (the sync's lease, same mechanism: lib/db/leases.ts)",
);

const live = 'Live dashboards';
export const LiveTicketEntity = /* @__PURE__ */ entity({
  type: 'LiveTicket',
  /** Stored under the SHA-256 of its value, so the table never holds a usable ticket. */
  key: (ticket: string) => ({ PK: `LIVETICKET#${createHash('sha256').update(ticket).digest('hex')}`, SK: 'TICKET' }),
  fromItem: (item) => item,
});
dataModel: docRow(LiveTicketEntity, { section: live, name: 'Live ticket', PK: '`LIVETICKET#<sha256(ticket), hex>`', SK: '`TICKET`',
  notes: '`filter`, `access` (the scope of the principal it was issued to; absent: unscoped, docs/guide/rules/live.md "A live connection keeps the scope of the principal its ticket was issued to"), `validUntil` (epoch ms), `expiresAt` (TTL, +60 s); the ticket itself is never stored' });

const CONNECTION = 'LIVECONN#';
export const LiveConnectionEntity = /* @__PURE__ */ entity({
  type: 'LiveConnection',
  key: (connectionId: string) => ({ PK: `${CONNECTION}${connectionId}`, SK: 'CONN' }),
  fromItem: (item) => item,
});
dataModel: docRow(LiveConnectionEntity, { section: live, name: 'Live connection', PK: '`LIVECONN#<connectionId>`', SK: '`CONN`',
  notes: '`filter`, `scopeKey`, `access` (from its ticket; absent: unscoped), `subscriptionId` (its current subscription), `connectedAt`, `expiresAt` (+2 h 1 min), `messageWindow`, `messages` (message rate: the current 10 s window and its count)' });
export const connectionIdOf = (item: Item): string => String(item.PK).slice(CONNECTION.length);

export const liveScopePk = (scopeKey: string) => `LIVESCOPE#${scopeKey}`;
export const LiveSubscriptionEntity = /* @__PURE__ */ entity({
  type: 'LiveSubscription',
  /** Subscriptions written before the move protocol have no id: their key is the connection id alone. */
  key: ({ scopeKey, connectionId, subscriptionId }: { scopeKey: string; connectionId: string; subscriptionId?: string | undefined }) => ({
    PK: liveScopePk(scopeKey),
    SK: subscriptionId ? `${connectionId}#${subscriptionId}` : connectionId,
  }),
  fromItem: (item) => item,
});
dataModel: docRow(LiveSubscriptionEntity, { section: live, name: 'Live subscription', PK: '`LIVESCOPE#<scopeKey>`', SK: '`<connectionId>#<subscriptionId>` (`<connectionId>` when written before subscription ids)',
  notes: '`connectionId`, `subscriptionId`, `access` (as its connection: a push skips rooms outside it), `expiresAt` (as its connection)' });
