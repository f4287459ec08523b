/** One mail of the outbox; `id` is fixed by the transition, so delivering twice is detectable. */
export interface Mail {
  id: string;
  to: string[];
  subject: string;
  text: string;
  /** The same content as HTML (digests); the mail then has both parts. */
  html?: string;
}

/**
 * Delivers the mails of alarm transitions. `send` is idempotent per mail id: it answers false
 * when that mail was delivered before, so a run that resumes after a crash never mails twice.
 * The implementations (local outbox, SES) are adapters: lib/adapters/mail.ts. The evaluator, the
 * notifier, channel tests and reports are handed one.
 */
export interface Mailer {
  readonly kind: 'outbox' | 'ses';
  send(mail: Mail): Promise<boolean>;
}
