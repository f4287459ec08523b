import { outbox, sentMails } from '#lib/db/outbox';
import { recordWork } from '#lib/observability/metrics';
import { traced } from '#lib/observability/tracing';
import type { Mail } from './types';

/**
 * Delivers the mails of alarm transitions. `send` is idempotent per mail id: it answers false
 * when that mail was delivered before, so a run that resumes after a crash never mails twice.
 */
export interface Mailer {
  readonly kind: 'outbox' | 'ses';
  send(mail: Mail): Promise<boolean>;
}

/** Local runs and tests: mails are stored records (GET /alarms/outbox); storing is exactly-once. */
export const outboxMailer = (now: () => string = () => new Date().toISOString()): Mailer => ({
  kind: 'outbox',
  send: (mail) => outbox.store(mail, now()),
});

/**
 * Amazon SES v2. SES has no idempotency key, so a ledger of sent ids guards the resend: the
 * one window left is a crash between SES accepting the mail and the ledger write (docs/decisions.md).
 * The SDK client is loaded on first use, so functions that never mail through SES do not pay for it.
 */
export const sesMailer = (from: string): Mailer => {
  let client: Promise<{ send: (mail: Mail) => Promise<void> }> | undefined;
  const load = async () => {
    const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    const ses = traced(new SESv2Client({}));
    return {
      send: async (mail: Mail) => {
        await ses.send(
          new SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: mail.to },
            Content: {
              Simple: {
                Subject: { Data: mail.subject, Charset: 'UTF-8' },
                Body: {
                  Text: { Data: mail.text, Charset: 'UTF-8' },
                  ...(mail.html ? { Html: { Data: mail.html, Charset: 'UTF-8' } } : {}),
                },
              },
            },
          }),
        );
      },
    };
  };
  return {
    kind: 'ses',
    async send(mail) {
      if (await sentMails.has(mail.id)) return false;
      client ??= load();
      await (await client).send(mail).catch(async (error: unknown) => {
        await recordWork('notifications', { NotificationsFailed: 1 });
        throw error;
      });
      await recordWork('notifications', { NotificationsSent: 1 });
      await sentMails.record(mail.id, new Date().toISOString());
      return true;
    },
  };
};

/** MAILER=ses (needs MAIL_FROM, a verified SES identity) or outbox (the default off AWS). */
export const mailerFromEnv = (env: NodeJS.ProcessEnv = process.env): Mailer => {
  const kind = env.MAILER ?? 'outbox';
  if (kind === 'outbox') return outboxMailer();
  if (kind !== 'ses') throw new Error(`MAILER must be ses or outbox (got ${kind})`);
  if (!env.MAIL_FROM) throw new Error('MAILER=ses needs MAIL_FROM, an address of a verified SES identity');
  return sesMailer(env.MAIL_FROM);
};
