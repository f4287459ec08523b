import type { DeliveryView, Digest, NotificationType, StoredDelivery, Target, Channel } from '#lib/notify/types';
import { docRow, entity, someTexts, textList, texts } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';
import { channelOf as serviceNowChannel } from './servicenow/pure/channel';

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




export const CHANNELS = 'CHANNEL';
export const ChannelEntity = /* @__PURE__ */ entity({
  type: 'Channel',
  key: (id: string) => ({ PK: CHANNELS, SK: `CHANNEL#${id}` }),
  /** Never reads the signing secret: only `secretOf` does. */
  fromItem: (item): Channel => {
    const common = texts(item, 'id', 'name', 'createdAt', 'updatedAt');
    if (item.channelType === 'servicenow') return { ...common, ...serviceNowChannel(item) };
    return item.channelType === 'webhook'
      ? { ...common, type: 'webhook', url: String(item.url), format: item.format === 'slack' || item.format === 'teams' ? item.format : 'json' }
      : { ...common, type: 'email', emails: textList(item.emails) };
  },
});
dataModel: docRow(ChannelEntity, { section: 'Notifications', name: 'Channel', PK: '`CHANNEL`', SK: '`CHANNEL#<uuid>`',
  notes: '`id, name, channelType` (`email`/`webhook`/`servicenow`), `emails` or `url, format` or `instanceUrl, auth, username`/`clientId`, `secret` (webhook: read only to sign; servicenow: the password or client secret, read only to send), `version, createdAt, updatedAt`' });
