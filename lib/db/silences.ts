import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Matchers, Silence } from '#lib/alarms/silences';
import { NotFound } from '#lib/errors';
import { caps } from '#lib/shared/caps';
import * as capped from './caps';
import { doc, tableName } from '#lib/store/client';
import { isConditionFailed, putNew, queryAll, type Item, updateItem } from './helpers';
import { mapPage, queryKeptPage, queryPage, type Page, type PagedQuery } from './pages';

/*
 * Silences are few (maintenance windows): one partition `SILENCE`, and GSI1 `SILENCES#BY_END`
 * sorted by endsAt, so "active and future" is one key condition (endsAt > now) and the
 * evaluator reads only those. Ended silences stay (expired) until `expiresAt` (TTL).
 */
const PARTITION = 'SILENCE';
const BY_END = 'SILENCES#BY_END';
const keys = (id: string) => ({ PK: PARTITION, SK: `SILENCE#${id}` });

const toItem = (silence: Silence, expiresAt: number): Item => ({
  ...keys(silence.id),
  GSI1PK: BY_END,
  GSI1SK: `${silence.endsAt}#${silence.id}`,
  type: 'Silence',
  ...silence,
  expiresAt,
});

const fromItem = (item: Item): Silence => {
  const silence: Silence = {
    id: String(item.id),
    matchers: item.matchers as Matchers,
    startsAt: String(item.startsAt),
    endsAt: String(item.endsAt),
    comment: String(item.comment),
    createdBy: String(item.createdBy),
    createdAt: String(item.createdAt),
  };
  if (typeof item.endedAt === 'string') silence.endedAt = item.endedAt;
  return silence;
};

const notFound = (id: string) => new NotFound(`Silence ${id} not found`);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** At most `SILENCES_MAX_ACTIVE` silences not yet ended (pending or active) per stage: a create past it is 409. */
const cap: capped.CapRules = {
  name: 'silences',
  get max() {
    return caps.activeSilences();
  },
  full: (max) => `This stage holds ${max} pending or active silences, its maximum (SILENCES_MAX_ACTIVE); end one first (DELETE /silences/{id})`,
  living: async () => {
    const now = Date.now();
    const items = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PARTITION },
      ExpressionAttributeNames: { '#ends': 'endsAt' },
      ProjectionExpression: 'id, #ends',
      ConsistentRead: true,
    });
    return new Map(items.map((item) => [String(item.id), Date.parse(String(item.endsAt))] as const).filter(([, ends]) => ends > now));
  },
};

/** Stores a new silence; 409 when the stage holds its maximum of silences not yet ended. */
export const create = async (silence: Silence, expiresAt: number): Promise<Silence> => {
  await capped.admit(cap, silence.id, Date.parse(silence.endsAt));
  try {
    await putNew(toItem(silence, expiresAt), () => new Error(`silence id ${silence.id} collided`));
  } catch (error) {
    await capped.release(cap.name, [silence.id]).catch(() => undefined); // else healed when the cap is reached
    throw error;
  }
  return silence;
};

/** One silence (any status); 404 when unknown or past its retention. */
export const get = async (id: string): Promise<Silence> => {
  const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(id), ConsistentRead: true }));
  if (!item || Number(item.expiresAt) <= nowSeconds()) throw notFound(id);
  return fromItem(item);
};

const currentQuery = (now: string) => ({
  IndexName: 'GSI1',
  KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK > :now',
  ExpressionAttributeValues: { ':pk': BY_END, ':now': `${now}#\uffff` },
});
const keptQuery = () => ({
  IndexName: 'GSI1',
  KeyConditionExpression: 'GSI1PK = :pk',
  FilterExpression: '#expires > :now',
  ExpressionAttributeNames: { '#expires': 'expiresAt' },
  ExpressionAttributeValues: { ':pk': BY_END, ':now': nowSeconds() },
});
const paged = (kept: boolean): PagedQuery => ({ keyAttributes: ['PK', 'SK', 'GSI1PK', 'GSI1SK'], partition: { GSI1PK: BY_END }, query: `silences?all=${kept}` });

/** Silences that have not ended at `now` (active and future), soonest end first. */
export const current = async (now: string): Promise<Silence[]> => (await queryAll(currentQuery(now))).map(fromItem);

/** Every kept silence, expired ones included, soonest end first. */
export const all = async (): Promise<Silence[]> => (await queryAll(keptQuery())).map(fromItem);

/**
 * One page of the current silences, or with `kept` of every kept one (expired ones included),
 * soonest end first; with `keep`, of those it accepts (a scoped caller's), the same cursors.
 */
export const page = async (kept: boolean, now: string, limit: number, cursor?: string, keep?: (silence: Silence) => boolean): Promise<Page<Silence>> => {
  const query = kept ? keptQuery() : currentQuery(now);
  const read = keep ? queryKeptPage(query, paged(kept), (item) => keep(fromItem(item)), limit, cursor) : queryPage(query, paged(kept), limit, cursor);
  return mapPage(await read, fromItem);
};

/**
 * Ends a silence at `now` (a future one never starts); an ended one is answered as it is.
 * The item stays, expired, until its retention ends.
 */
export const end = async (id: string, now: string): Promise<Silence> => {
  const current = await get(id);
  if (Date.parse(current.endsAt) <= Date.parse(now)) return current;
  const startsAt = Date.parse(current.startsAt) > Date.parse(now) ? now : current.startsAt;
  try {
    const { Attributes } = await updateItem(keys(id), {
      UpdateExpression: 'SET #ends = :now, #starts = :starts, #ended = :now, GSI1SK = :sk',
      ConditionExpression: '#ends = :was',
      ExpressionAttributeNames: { '#ends': 'endsAt', '#starts': 'startsAt', '#ended': 'endedAt' },
      ExpressionAttributeValues: { ':now': now, ':starts': startsAt, ':sk': `${now}#${id}`, ':was': current.endsAt },
      ReturnValues: 'ALL_NEW',
    });
    // it no longer counts against the cap; a failed release lapses at its old end anyway
    await capped.release(cap.name, [id]).catch(() => undefined);
    return fromItem(Attributes ?? {});
  } catch (error) {
    // ended by a concurrent DELETE: answer it as that one left it
    if (isConditionFailed(error)) return get(id);
    throw error;
  }
};
