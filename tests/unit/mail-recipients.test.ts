import { describe, expect, it } from 'vitest';
import { Invalid } from '#lib/shared/errors';
import { mailAllowedDomains, mayMail, requireAllowedRecipients } from '#lib/notify/mail/pure/recipients';

describe('MAIL_ALLOWED_DOMAINS', () => {
  const allowed = mailAllowedDomains({ MAIL_ALLOWED_DOMAINS: ' Example.com, *.example.net ,' });

  it('reads a comma-separated, case-insensitive list; empty or unset allows any domain', () => {
    expect(allowed).toEqual(['example.com', '*.example.net']);
    expect(mailAllowedDomains({})).toEqual([]);
    expect(mayMail('anyone@anywhere.example', [])).toBe(true);
  });

  it('matches a domain exactly, and its subdomains only when listed as *.domain', () => {
    expect(mayMail('ops@EXAMPLE.COM', allowed)).toBe(true);
    expect(mayMail('ops@eu.example.com', allowed)).toBe(false);
    expect(mayMail('ops@example.net', allowed)).toBe(true);
    expect(mayMail('ops@eu.example.net', allowed)).toBe(true);
    expect(mayMail('ops@badexample.net', allowed)).toBe(false);
    expect(mayMail('"a@example.com"@evil.example', allowed)).toBe(false);
  });

  it('refuses with 400 naming every address outside and its field', () => {
    let error: unknown;
    try {
      requireAllowedRecipients(['ok@example.com', 'x@evil.example', 'y@evil.example'], 'body.emails', allowed);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).details?.map((d) => d.field)).toEqual(['body.emails[1]', 'body.emails[2]']);
    expect((error as Invalid).message).toContain('x@evil.example');
    expect(() => requireAllowedRecipients(['ok@example.com'], 'body.emails', allowed)).not.toThrow();
    expect(() => requireAllowedRecipients(undefined, 'body.emails', allowed)).not.toThrow();
  });
});
