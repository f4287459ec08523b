import * as outbox from '#lib/notify/mail/repository';
import { sentMails } from '#lib/notify/mail/repository';
import { recordWork } from '#lib/shared/metrics';
import { traced } from '#lib/shared/tracing';
import { headerText } from '#lib/shared/header';
import type { Mail, Mailer } from '#lib/notify/mail/types';

/*
 * The ways alarm mails leave, behind the Mailer of lib/notify/mail (types.ts): the local
 * outbox, or Amazon SES. Functions pick one (mailerFromEnv) and hand it to the alarm engine.
 */

/** Local runs and tests: mails are stored records (GET /alarms/outbox); storing is exactly-once. */
export const outboxMailer = (now: () => string = () => new Date().toISOString()): Mailer => ({
  kind: 'outbox',
  send: (mail) => outbox.store({ ...mail, subject: headerText(mail.subject) }, now()),
});

/**
 * Amazon SES v2. SES has no idempotency key, so a ledger of sent ids guards the resend: the
 * one window left is a crash between SES accepting the mail and the ledger write (docs/adr/0091-exactly-once-deliveries.md).
 * The SDK client is loaded on first use, so functions that never mail through SES do not pay for it.
 */
const sesMailer = (from: string): Mailer => {
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
                Subject: { Data: headerText(mail.subject), Charset: 'UTF-8' },
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
