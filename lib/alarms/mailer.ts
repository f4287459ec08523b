import type { Mail } from './types';

/**
 * Delivers the mails of alarm transitions. `send` is idempotent per mail id: it answers false
 * when that mail was delivered before, so a run that resumes after a crash never mails twice.
 * The implementations (local outbox, SES) are adapters: lib/adapters/mail.ts.
 */
export interface Mailer {
  readonly kind: 'outbox' | 'ses';
  send(mail: Mail): Promise<boolean>;
}
