import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MaintenanceWindow, WindowMatchers } from '#lib/maintenance/types';
import { Conflict, NotFound } from '#lib/errors';
import { caps } from '#lib/shared/caps';
import * as capped from './caps';
import { doc, tableName } from './client';
import { deleteItem, hasExpired, isConditionFailed, putNew, queryAll, type Item } from './helpers';
import { mapPage, queryKeptPage, queryPage, type Page, type PagedQuery } from './pages';

/*
 * Maintenance windows (issue 28 item 1; docs/data-model.md "Maintenance windows") are few, like
 * silences: one partition `MAINTENANCE`, sorted by id, and ids are UUIDv7
 * (docs/adr/0405-maintenance-windows-in-one-partition.md), so the list is one Query in creation
 * order and no index is read (nothing lags). `version` guards
 * replace and delete. A window with an end is kept until `expiresAt` (TTL, retention after its
 * last opening); one without stays until deleted.
 */
const PARTITION = 'MAINTENANCE';
const keys = (id: string) => ({ PK: PARTITION, SK: `MAINTENANCE#${id}` });

/** A stored window and the version it was read at. */
export interface VersionedWindow {
  window: MaintenanceWindow;
  version: number;
}

/** When a window stops counting against the cap (epoch ms), and when the store may forget it (epoch s). */
export interface WindowLife {
  until?: number;
  expiresAt?: number;
}

const toItem = (window: MaintenanceWindow, version: number, life: WindowLife): Item => ({
  ...keys(window.id),
  type: 'MaintenanceWindow',
  ...window,
  version,
  ...(life.until === undefined ? {} : { until: life.until }),
  ...(life.expiresAt === undefined ? {} : { expiresAt: life.expiresAt }),
});

const fromItem = (item: Item): MaintenanceWindow => {
  const window: MaintenanceWindow = {
    id: String(item.id),
    matchers: item.matchers as WindowMatchers,
    schedule: item.schedule as MaintenanceWindow['schedule'],
    comment: String(item.comment),
    createdBy: String(item.createdBy),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
  if (typeof item.startsAt === 'string') window.startsAt = item.startsAt;
  if (typeof item.endsAt === 'string') window.endsAt = item.endsAt;
  return window;
};

const notFound = (id: string) => new NotFound(`Maintenance window ${id} not found`);
const changed = (id: string) => new Conflict(`Maintenance window ${id} was changed by another request; read it again and retry`);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** At most `MAINTENANCE_WINDOWS_MAX` windows not yet ended per stage: a create past it is 409. */
const cap: capped.CapRules = {
  name: 'maintenance',
  get max() {
    return caps.maintenanceWindows();
  },
  full: (max) => `This stage holds ${max} maintenance windows not yet ended, its maximum (MAINTENANCE_WINDOWS_MAX); delete one first (DELETE /maintenance/{id})`,
  living: async () => {
    const now = Date.now();
    const items = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PARTITION },
      ExpressionAttributeNames: { '#until': 'until' },
      ProjectionExpression: 'id, #until',
      ConsistentRead: true,
    });
    const until = (item: Item) => (typeof item.until === 'number' ? item.until : undefined);
    return new Map(items.filter((item) => (until(item) ?? Infinity) > now).map((item) => [String(item.id), until(item)] as const));
  },
};

/** Stores a new window; 409 when the stage holds its maximum of windows not yet ended. */
export const create = async (window: MaintenanceWindow, life: WindowLife): Promise<MaintenanceWindow> => {
  await capped.admit(cap, window.id, life.until);
  try {
    await putNew(toItem(window, 1, life), () => new Error(`maintenance window id ${window.id} collided`));
  } catch (error) {
    await capped.release(cap.name, [window.id]).catch(() => undefined); // else healed when the cap is reached
    throw error;
  }
  return window;
};

/** One window and its version (strongly consistent); 404 when unknown or past its retention. */
export const getVersioned = async (id: string): Promise<VersionedWindow> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  if (!item || hasExpired(item)) throw notFound(id);
  return { window: fromItem(item), version: Number(item.version) };
};

const listQuery = () => ({
  KeyConditionExpression: 'PK = :pk',
  FilterExpression: 'attribute_not_exists(#expires) OR #expires > :now',
  ExpressionAttributeNames: { '#expires': 'expiresAt' },
  ExpressionAttributeValues: { ':pk': PARTITION, ':now': nowSeconds() },
  ConsistentRead: true,
});
const paged: PagedQuery = { keyAttributes: ['PK', 'SK'], partition: { PK: PARTITION }, query: 'maintenance' };

/** Every kept window, oldest first (the alarm engine's read: one Query of one small partition). */
export const all = async (): Promise<MaintenanceWindow[]> => (await queryAll(listQuery())).map(fromItem);

/** One page of the kept windows, oldest first; with `keep`, of those it accepts (a scoped caller's), the same cursors. */
export const page = async (limit: number, cursor?: string, keep?: (window: MaintenanceWindow) => boolean): Promise<Page<MaintenanceWindow>> => {
  const read = keep ? queryKeptPage(listQuery(), paged, (item) => keep(fromItem(item)), limit, cursor) : queryPage(listQuery(), paged, limit, cursor);
  return mapPage(await read, fromItem);
};

/**
 * Replaces a window read at `version` (its id, createdBy and createdAt kept by the caller);
 * 409 when another request wrote it since, 404 when it was deleted since.
 */
export const replace = async (current: VersionedWindow, window: MaintenanceWindow, life: WindowLife): Promise<MaintenanceWindow> => {
  await capped.admit(cap, window.id, life.until); // a member already: its `until` moves
  try {
    await doc.send(
      new PutCommand({
        TableName: tableName(),
        Item: toItem(window, current.version + 1, life),
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':read': current.version },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    await getVersioned(window.id); // 404 when deleted meanwhile
    throw changed(window.id);
  }
  return window;
};

/** Deletes a window read at `version`; 409 when another request wrote it since, 404 when it is gone. */
export const remove = async (current: VersionedWindow): Promise<void> => {
  const { id } = current.window;
  try {
    await deleteItem(keys(id), {
      ConditionExpression: '#version = :read',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':read': current.version },
    });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    await getVersioned(id); // 404 when deleted meanwhile
    throw changed(id);
  }
  await capped.release(cap.name, [id]).catch(() => undefined); // else healed when the cap is reached
};
