import { randomUUID } from 'node:crypto';
import type { DeviceFilter } from '#lib/devices/deviceScope';
import { isUnscoped, type AccessScopeEntry } from '#lib/shared/access';
import { connectionIdOf, LiveConnectionEntity, liveFilterScopePk, LiveSubscriptionEntity } from '#lib/live/entities';
import { someTexts } from '#lib/store/entity';
import { and, expr, type Expr } from '#lib/store/expression';
import { queryAll } from '#lib/store/query';
import { EXISTS, nowSeconds, take, type Item } from '#lib/store/table';

// Live connections and their subscriptions by scope key; moves are conditional, scope kept from the ticket (docs/guide/rules/live.md).

/** A connection as stored; no `access`: unscoped (the scope of the principal whose ticket opened it). */
export type Connection = ReturnType<typeof toConnection>;
export type Subscriber = Pick<Connection, 'connectionId' | 'scopeKey' | 'subscriptionId' | 'access'>;
type Scoped = Pick<Connection, 'filter' | 'scopeKey'>;

export const toFilter = (value: unknown): DeviceFilter => {
  const filter = (value ?? {}) as Partial<DeviceFilter>;
  return { regionName: String(filter.regionName), locationName: String(filter.locationName), roomName: String(filter.roomName) };
};

/** A stored scope (absent or empty: unscoped), entries kept to their two names. */
export const toAccess = (value: unknown): AccessScopeEntry[] =>
  Array.isArray(value)
    ? value.map((entry: Record<string, unknown>) =>
        typeof entry.location === 'string' ? { region: String(entry.region), location: entry.location } : { region: String(entry.region) },
      )
    : [];

/** The `access` attribute of an item: present only when it narrows. */
const accessField = (access: readonly AccessScopeEntry[] | undefined): { access?: AccessScopeEntry[] } => (access && !isUnscoped(access) ? { access: [...access] } : {});

const toConnection = (item: Item) => ({
  connectionId: connectionIdOf(item),
  filter: toFilter(item.filter),
  scopeKey: String(item.scopeKey),
  ...someTexts(item, 'subscriptionId'),
  ...accessField(toAccess(item.access)),
  expiresAt: Number(item.expiresAt),
  ...(typeof item.messages === 'number' ? { messages: item.messages } : {}),
});

const putSubscription = (scopeKey: string, connectionId: string, subscriptionId: string, expiresAt: number, access: readonly AccessScopeEntry[] | undefined) =>
  LiveSubscriptionEntity.put({ scopeKey, connectionId, subscriptionId }, { connectionId, subscriptionId, ...accessField(access), expiresAt });
const deleteSubscription = (scopeKey: string, connectionId: string, subscriptionId?: string) => LiveSubscriptionEntity.remove({ scopeKey, connectionId, subscriptionId });

/** Registers an open connection watching `scope` until `expiresAt` (epoch s), within `access` (empty: unscoped). */
export const open = async (connectionId: string, scope: Scoped, expiresAt: number, access: readonly AccessScopeEntry[] = []): Promise<void> => {
  const subscriptionId = randomUUID();
  await Promise.all([
    putSubscription(scope.scopeKey, connectionId, subscriptionId, expiresAt, access),
    LiveConnectionEntity.put(connectionId, { ...scope, ...accessField(access), subscriptionId, connectedAt: new Date().toISOString(), expiresAt }),
  ]);
};

/** Counts one message in the rate window at `window` (epoch s) on the connection item (docs/guide/rules/live.md "Live message rate: 10 per 10 s per connection"); undefined when not registered. */
export const admitMessage = async (connectionId: string, window: number): Promise<Connection | undefined> => {
  const count = async (change: Expr, condition: string) => {
    const live = and(expr('attribute_exists(PK) AND #expiresAt > :now', { now: nowSeconds() }), `(${condition})`)!;
    const counted = await LiveConnectionEntity.update(connectionId, { ...change, values: { ...change.values, window, one: 1 } }, live, 'ALL_NEW');
    return counted && toConnection(counted);
  };
  const inWindow = () => count(expr('SET #messages = #messages + :one'), '#messageWindow = :window');
  return (
    (await inWindow()) ??
    (await count(expr('SET #messageWindow = :window, #messages = :one'), 'attribute_not_exists(#messageWindow) OR #messageWindow < :window')) ??
    // another message opened the window meanwhile
    (await inWindow())
  );
};

/** What a move came to: moved; lost to another move of the same connection; the connection is gone. */
type MoveOutcome = 'moved' | 'raced' | 'gone';

/** Moves a connection to another scope (docs/guide/rules/live.md "Moving a live connection is conditional; the board drops pushes outside its scope"); `current`: the connection as just read. */
export const move = async (connectionId: string, scope: Scoped, current?: Connection): Promise<MoveOutcome> => {
  const read = current ?? (await find(connectionId));
  if (!read || read.expiresAt <= nowSeconds()) return 'gone';
  const subscriptionId = randomUUID();
  await putSubscription(scope.scopeKey, connectionId, subscriptionId, read.expiresAt, read.access);
  const asRead = and(
    EXISTS,
    expr('#scopeKey = :readScopeKey', { readScopeKey: read.scopeKey }),
    read.subscriptionId ? expr('#subscriptionId = :readSubscriptionId', { readSubscriptionId: read.subscriptionId }) : 'attribute_not_exists(#subscriptionId)',
  );
  if (!(await LiveConnectionEntity.update(connectionId, { set: { filter: scope.filter, scopeKey: scope.scopeKey, subscriptionId } }, asRead))) {
    await deleteSubscription(scope.scopeKey, connectionId, subscriptionId);
    return (await find(connectionId)) ? 'raced' : 'gone';
  }
  await deleteSubscription(read.scopeKey, connectionId, read.subscriptionId);
  return 'moved';
};

/** Forgets a connection (closed, or found gone by a push) and its subscription (and `also`, the one the push found). */
export const close = async (connectionId: string, also?: Subscriber): Promise<void> => {
  const removed = await take(LiveConnectionEntity.key(connectionId));
  const stored = removed ? toConnection(removed) : undefined;
  const subscriptions = new Map([stored, also].flatMap((s) => (s ? [[`${s.scopeKey}#${s.subscriptionId}`, s] as const] : [])));
  await Promise.all([...subscriptions.values()].map((s) => deleteSubscription(s.scopeKey, connectionId, s.subscriptionId)));
};

export const find = async (connectionId: string): Promise<Connection | undefined> => {
  const item = await LiveConnectionEntity.read(connectionId, { consistent: true });
  return item && toConnection(item);
};

/** Unexpired subscribers of one scope key: one Query of its partition (paged), O(subscribers found). */
export const subscribersOf = async (scopeKey: string): Promise<Subscriber[]> => {
  const items = await queryAll({
    pk: liveFilterScopePk(scopeKey),
    filter: expr('#expiresAt > :now', { now: nowSeconds() }),
    project: ['SK', 'connectionId', 'subscriptionId', 'access'],
  });
  return items.map((item) => ({
    connectionId: String(item.connectionId ?? item.SK),
    scopeKey,
    ...someTexts(item, 'subscriptionId'),
    ...accessField(toAccess(item.access)),
  }));
};

export const subscribers = async (scopeKeys: readonly string[]): Promise<Subscriber[]> => (await Promise.all(scopeKeys.map(subscribersOf))).flat();
