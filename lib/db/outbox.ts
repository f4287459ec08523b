import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mail } from '#lib/alarms/types';
import { doc, tableName } from '#lib/store/client';
import { isConditionFailed, type Item } from './helpers';
import type { Page } from './pages';
import { queryShardsDescending, shardKey } from './shards';

/*
 * The local mailbox (MAILER=outbox): one item per mail, keyed by the mail's id, so storing the
 * same mail twice is a no-op. GSI1 (`OUTBOX#<shard>`, K shards by mail id, each sorted by time)
 * lists them newest first once merged.
 * The SES mailer keeps a ledger of the mail ids it sent (`MAILSENT#<id>`) for the same reason.
 * Both expire after 30 days; readers treat an expired record as absent.
 */
const OUTBOX = 'OUTBOX';
const KEEP_SECONDS = 30 * 24 * 60 * 60;
const expiry = (at: string) => Math.floor(Date.parse(at) / 1000) + KEEP_SECONDS;

export interface OutboxMail extends Mail {
  storedAt: string;
}

const fromItem = (item: Item): OutboxMail => ({
  id: String(item.id),
  to: Array.isArray(item.to) ? item.to.map(String) : [],
  subject: String(item.subject),
  text: String(item.text),
  ...(typeof item.html === 'string' ? { html: item.html } : {}),
  storedAt: String(item.storedAt),
});

const putOnce = async (Item: Item): Promise<boolean> => {
  try {
    await doc.send(new PutCommand({ TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' }));
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
};

/** Stores a mail unless its id is stored already; true when it is new. */
export const store = async (mail: Mail, storedAt: string): Promise<boolean> => {
  return putOnce({
    PK: `OUTBOX#${mail.id}`,
    SK: 'MAIL',
    GSI1PK: shardKey(OUTBOX, mail.id),
    GSI1SK: `${storedAt}#${mail.id}`,
    type: 'OutboxMail',
    ...mail,
    storedAt,
    expiresAt: expiry(storedAt),
  });
};

/** Stored mails newest first, optionally only those addressed to `to`; all, or one page. */
export const list = async (to: string | undefined, page: { limit?: number; cursor?: string }): Promise<OutboxMail[] | Page<OutboxMail>> => {
  const answer = await queryShardsDescending(
    {
      base: OUTBOX,
      index: 'GSI1',
      FilterExpression: `(attribute_not_exists(expiresAt) OR expiresAt > :now)${to ? ' AND contains(#to, :to)' : ''}`,
      ...(to ? { ExpressionAttributeNames: { '#to': 'to' } } : {}),
      ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000), ...(to ? { ':to': to } : {}) },
    },
    page,
    `outbox ${to ?? ''}`,
  );
  return Array.isArray(answer) ? answer.map(fromItem) : { items: answer.items.map(fromItem), nextCursor: answer.nextCursor };
};

export const sentMails = {
  async has(id: string): Promise<boolean> {
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: { PK: `MAILSENT#${id}`, SK: 'SENT' }, ConsistentRead: true }));
    return Item !== undefined && (typeof Item.expiresAt !== 'number' || Item.expiresAt > Date.now() / 1000);
  },
  async record(id: string, sentAt: string): Promise<void> {
    await putOnce({ PK: `MAILSENT#${id}`, SK: 'SENT', type: 'SentMail', id, sentAt, expiresAt: expiry(sentAt) });
  },
};
