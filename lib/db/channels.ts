import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '#lib/errors';
import type { Channel, ChannelInput } from '#lib/notify/types';
import { doc, tableName } from './client';
import { conditionHeld, queryAll, updateItem, whenExists, type Item } from './helpers';

/*
 * Notification channels are few: one partition, listed with one Query. A webhook channel
 * keeps its signing secret on the item; `fromItem` never reads it, only `secretOf` does.
 */
const PARTITION = 'CHANNEL';
const keys = (id: string) => ({ PK: PARTITION, SK: `CHANNEL#${id}` });
const notFound = (id: string) => new NotFound(`Channel ${id} not found`);

const fromItem = (item: Item): Channel => {
  const common = { id: String(item.id), name: String(item.name), createdAt: String(item.createdAt), updatedAt: String(item.updatedAt) };
  return item.channelType === 'webhook'
    ? { ...common, type: 'webhook', url: String(item.url), format: item.format === 'slack' || item.format === 'teams' ? item.format : 'json' }
    : { ...common, type: 'email', emails: Array.isArray(item.emails) ? item.emails.map(String) : [] };
};

const fields = (input: ChannelInput): Item =>
  input.type === 'webhook'
    ? { name: input.name, channelType: 'webhook', url: input.url, format: input.format ?? 'json' }
    : { name: input.name, channelType: 'email', emails: [...input.emails] };

/** Stores a new channel; a webhook with its signing secret. */
export const create = async (input: ChannelInput, secret: string | undefined): Promise<Channel> => {
  const id = randomUUID();
  const now = new Date().toISOString();
  const item: Item = { ...keys(id), type: 'Channel', id, ...fields(input), ...(secret ? { secret } : {}), version: 1, createdAt: now, updatedAt: now };
  await doc.send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
  return fromItem(item);
};

export const list = async (): Promise<Channel[]> => {
  const items = await queryAll({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': PARTITION } });
  return items.map(fromItem);
};

export const get = async (id: string): Promise<Channel> => {
  return (await read(id)).channel;
};

/** The channel and the version it was read at (a delete is conditional on it). */
export const read = async (id: string): Promise<{ channel: Channel; version: number }> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  if (!Item) throw notFound(id);
  return { channel: fromItem(Item), version: Number(Item.version) };
};

/**
 * A watcher that names the channel was just written: move the channel's version on, so that
 * a delete that read the channel before that write fails its condition. False when the
 * channel is gone.
 */
export const markUsed = async (id: string): Promise<boolean> => {
  const bump = { UpdateExpression: 'SET #version = #version + :one', ExpressionAttributeValues: { ':one': 1 } };
  const ifExists = { ConditionExpression: 'attribute_exists(PK)', ExpressionAttributeNames: { '#version': 'version' } };
  return conditionHeld(doc.send(new UpdateCommand({ TableName: tableName(), Key: keys(id), ...bump, ...ifExists })));
};

/** The channel, or undefined when it is gone (deliveries to a deleted channel fail). */
export const find = async (id: string): Promise<Channel | undefined> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
};

/** The signing secret of a webhook channel (sending only; never answered after create/rotate). */
export const secretOf = async (id: string): Promise<string | undefined> => {
  const { Item } = await doc.send(
    new GetCommand({ TableName: tableName(), Key: keys(id), ProjectionExpression: '#secret', ExpressionAttributeNames: { '#secret': 'secret' }, ConsistentRead: true }),
  );
  return typeof Item?.secret === 'string' ? Item.secret : undefined;
};

/** PUT semantics: name and target replaced, type, secret and createdAt kept; 404 when unknown. */
export const replace = async (id: string, input: ChannelInput): Promise<Channel> => {
  const set = fields(input);
  const remove = input.type === 'webhook' ? ['emails'] : ['url', 'format'];
  const names: Record<string, string> = { '#updatedAt': 'updatedAt', '#version': 'version', '#type': 'channelType' };
  const values: Record<string, unknown> = { ':now': new Date().toISOString(), ':one': 1, ':type': input.type };
  const sets = Object.entries(set).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  remove.forEach((field, i) => (names[`#r${i}`] = field));
  const { Attributes } = await whenExists(
    doc.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys(id),
        UpdateExpression: `SET ${sets.join(', ')}, #updatedAt = :now, #version = #version + :one REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(PK) AND #type = :type',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
    () => notFound(id),
  );
  return fromItem(Attributes ?? {});
};

/** Replaces the signing secret of a webhook channel; 404 when there is no such webhook channel. */
export const rotateSecret = async (id: string, secret: string): Promise<Channel> => {
  const { Attributes } = await whenExists(
    updateItem(keys(id), {
      UpdateExpression: 'SET #secret = :secret, #updatedAt = :now, #version = #version + :one',
      ConditionExpression: 'attribute_exists(PK) AND #type = :webhook',
      ExpressionAttributeNames: { '#secret': 'secret', '#updatedAt': 'updatedAt', '#version': 'version', '#type': 'channelType' },
      ExpressionAttributeValues: { ':secret': secret, ':now': new Date().toISOString(), ':one': 1, ':webhook': 'webhook' },
      ReturnValues: 'ALL_NEW',
    }),
    () => notFound(id),
  );
  return fromItem(Attributes ?? {});
};

/** Deletes the channel as read at `version`; 404 when gone, 409 when written since. */
export const remove = async (id: string, version: number): Promise<void> => {
  const atVersion = { ConditionExpression: '#version = :read', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':read': version } };
  if (await conditionHeld(doc.send(new DeleteCommand({ TableName: tableName(), Key: keys(id), ...atVersion })))) return;
  await get(id); // 404 when it is gone
  throw new Conflict(`Channel ${id} was changed or named by a watcher meanwhile; read it again and retry`);
};
