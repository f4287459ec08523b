import { createHash } from 'node:crypto';
import { docRow, entity } from '#lib/store/entity';
import type { Item } from '#lib/store/expression';

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

export const liveFilterScopePk = (scopeKey: string) => `LIVESCOPE#${scopeKey}`;
export const LiveSubscriptionEntity = /* @__PURE__ */ entity({
  type: 'LiveSubscription',
  /** Subscriptions written before the move protocol have no id: their key is the connection id alone. */
  key: ({ scopeKey, connectionId, subscriptionId }: { scopeKey: string; connectionId: string; subscriptionId?: string | undefined }) => ({
    PK: liveFilterScopePk(scopeKey),
    SK: subscriptionId ? `${connectionId}#${subscriptionId}` : connectionId,
  }),
  fromItem: (item) => item,
});
dataModel: docRow(LiveSubscriptionEntity, { section: live, name: 'Live subscription', PK: '`LIVESCOPE#<scopeKey>`', SK: '`<connectionId>#<subscriptionId>` (`<connectionId>` when written before subscription ids)',
  notes: '`connectionId`, `subscriptionId`, `access` (as its connection: a push skips rooms outside it), `expiresAt` (as its connection)' });
