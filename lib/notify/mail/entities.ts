import { docRow, entity, someTexts, textList, texts } from '#lib/store/entity';
import { shardKey } from '#lib/store/query';
import type { Mail } from './types';

/* What mail stores: the local outbox (MAILER=outbox) and the ledger of mails SES accepted. */
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
