import { Invalid, type ErrorDetail } from '#lib/shared/errors';

/*
 * Who the stage may mail. Whoever can write a watcher or an e-mail channel
 * chooses recipients and, through the watcher's type and description, much of the subject: with
 * no limit the stage's verified sender relays mail to anyone. MAIL_ALLOWED_DOMAINS (per stage,
 * comma-separated) lists the recipient domains: `example.com` is that domain exactly,
 * `*.example.com` also its subdomains. Empty means any domain, which suits a private stage only.
 */

/** The stage's allow-list, lower-cased; empty: any domain. */
export const mailAllowedDomains = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env.MAIL_ALLOWED_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** Whether mail may go to `address` under `allowed` (empty: anywhere). */
export const mayMail = (address: string, allowed: readonly string[]): boolean => {
  if (allowed.length === 0) return true;
  const domain = domainOf(address);
  return allowed.some((entry) => (entry.startsWith('*.') ? domain === entry.slice(2) || domain.endsWith(entry.slice(1)) : domain === entry));
};

/** Refuses (400) every address outside the allow-list, naming each one and its field (`body.emails[2]`). */
export const requireAllowedRecipients = (emails: readonly string[] | undefined, field: string, allowed = mailAllowedDomains()): void => {
  const refused: ErrorDetail[] = (emails ?? []).flatMap((address, i) =>
    mayMail(address, allowed) ? [] : [{ field: `${field}[${i}]`, message: `${field}[${i}] ${address} is outside the domains this stage mails (${allowed.join(', ')})` }],
  );
  if (refused.length > 0) throw new Invalid(`Invalid request: ${refused.map((detail) => detail.message).join('; ')}`, refused);
};
