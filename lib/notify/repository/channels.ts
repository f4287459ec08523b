import type { Action } from '#lib/store/transaction';
import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '#lib/shared/errors';
import type { Channel, ChannelInput } from '#lib/notify/types';
import { ChannelEntity, CHANNELS } from '#lib/notify/entities';
import { collection, versioned } from '#lib/store/entity';
import { and, expr, patchOf } from '#lib/store/expression';
import { changedMeanwhile, EXISTS, must, NEW, type Item } from '#lib/store/table';
import { storedFields as serviceNow } from '#lib/notify/servicenow/pure/channel';

// Channels: one partition (docs/guide/rules/notify.md "Notification channels"); only `secretOf` reads a webhook's signing secret.
const notFound = (id: string) => new NotFound(`Channel ${id} not found`);
const { fromItem } = ChannelEntity;
const channels = versioned(ChannelEntity, notFound, (id) => new Conflict(`Channel ${id} was changed or named by a watcher meanwhile; read it again and retry`));

const fields = (input: ChannelInput): Item => {
  if (input.type === 'servicenow') return { name: input.name, ...serviceNow(input).fields };
  return input.type === 'webhook'
    ? { name: input.name, channelType: 'webhook', url: input.url, format: input.format ?? 'json' }
    : { name: input.name, channelType: 'email', emails: [...input.emails] };
};

/** What a type's fields leave behind when a PUT replaces them (the other shapes' fields; a ServiceNow channel's other credential). */
const REMOVED: Record<ChannelInput['type'], string[]> = {
  email: ['url', 'format'],
  webhook: ['emails'],
  servicenow: ['username', 'clientId'],
};

/** A change of the channel's own fields: version and updatedAt move with it; 404 when it is not of `channelType`. */
const change = async (id: string, set: Item, channelType: string, remove: string[] = []): Promise<Channel> => {
  const ofType = and(EXISTS, expr('#channelType = :kind', { kind: channelType }));
  return fromItem(await must(ChannelEntity.update(id, { ...patchOf(set), remove }, ofType, 'ALL_NEW'), () => notFound(id)));
};

/** Stores a new channel; a webhook with its signing secret, a ServiceNow channel with its password or client secret. */
export const create = async (input: ChannelInput, secret: string | undefined): Promise<Channel> => {
  const id = randomUUID();
  const now = new Date().toISOString();
  const stored = { id, ...fields(input), ...(secret ? { secret } : {}), version: 1, createdAt: now, updatedAt: now };
  await must(ChannelEntity.put(id, stored, NEW), changedMeanwhile);
  return fromItem(stored);
};

export const list = async (): Promise<Channel[]> => (await collection(CHANNELS).all()).map(fromItem);

export const get = async (id: string): Promise<Channel> => (await read(id)).record;

export const read = channels.read;

/** Moves the channel's version on in the transaction that writes a watcher naming it, so an older delete fails; fails when gone (docs/guide/rules/notify.md "A watcher never names a deleted channel, even in a race"). */
export const markUsedAction = (id: string): Action => ({ update: ChannelEntity.key(id), change: { increment: { version: 1 } }, condition: EXISTS });

/** The channel, or undefined when it is gone (deliveries to a deleted channel fail). */
export const find = async (id: string): Promise<Channel | undefined> => ChannelEntity.find(id, { consistent: true });

/** The signing secret of a webhook channel, the credential of a ServiceNow channel (sending only; never answered after create/rotate). */
export const secretOf = async (id: string): Promise<string | undefined> => {
  const item = await ChannelEntity.read(id, { consistent: true, project: ['secret'] });
  return typeof item?.secret === 'string' ? item.secret : undefined;
};

/**
 * PUT semantics: name and target replaced, type, secret and createdAt kept; 404 when unknown.
 * A ServiceNow channel's credential is replaced by `secret` when one is given.
 */
export const replace = async (id: string, input: ChannelInput, secret?: string): Promise<Channel> => {
  const own = fields(input);
  const removed = REMOVED[input.type].filter((field) => !(field in own));
  return change(id, { ...own, ...(secret === undefined ? {} : { secret }) }, input.type, removed);
};

/** Replaces the signing secret of a webhook channel; 404 when there is no such webhook channel. */
export const rotateSecret = async (id: string, secret: string): Promise<Channel> => change(id, { secret }, 'webhook');

/** Deletes the channel as read at `version`; 404 when gone, 409 when written since. */
export const remove = channels.removeAt;
