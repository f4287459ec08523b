import { OUTBOX, outboxIndexKeys, OutboxMailEntity as Mails, SentMailEntity } from './entities';
import type { Mail } from './types';
import { expr } from '#lib/store/expression';
import { mapListOrPage, queryPartitionsDescending, shardsOf } from '#lib/store/paging';
import { hasExpired, NEW } from '#lib/store/table';

// The local mailbox (MAILER=outbox) and the SES sent ledger: idempotent by mail id, 30 days (docs/adr/0091-exactly-once-deliveries.md and docs/guide/rules/alarms.md "`GET /alarms` reads the open-alarm index; `GET /alarms/outbox` lists local mail").
const KEEP_SECONDS = 30 * 24 * 60 * 60;
const expiry = (at: string) => Math.floor(Date.parse(at) / 1000) + KEEP_SECONDS;

/** Stores a mail unless its id is stored already; true when it is new. */
export const store = async (mail: Mail, storedAt: string): Promise<boolean> =>
  Mails.put(mail.id, { ...outboxIndexKeys(mail.id, storedAt), ...mail, storedAt, expiresAt: expiry(storedAt) }, NEW);

/** Stored mails newest first, optionally only those addressed to `to`; all, or one page. */
export const list = async (to: string | undefined, page: { limit?: number; cursor?: string }) => {
  const unexpired = `(attribute_not_exists(#expiresAt) OR #expiresAt > :now)${to ? ' AND contains(#to, :to)' : ''}`;
  const filter = expr(unexpired, { now: Math.floor(Date.now() / 1000), ...(to ? { to } : {}) });
  return mapListOrPage(await queryPartitionsDescending(shardsOf({ pk: OUTBOX, index: 'GSI1', filter }), page, `outbox ${to ?? ''}`), Mails.fromItem);
};

export const sentMails = {
  async has(id: string): Promise<boolean> {
    const item = await SentMailEntity.read(id, { consistent: true });
    return item !== undefined && !hasExpired(item);
  },
  async record(id: string, sentAt: string): Promise<void> {
    await SentMailEntity.put(id, { id, sentAt, expiresAt: expiry(sentAt) }, NEW);
  },
};
