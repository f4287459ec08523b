import { describe, expect, it } from 'vitest';
import { passwordProblem } from '#lib/access/passwordPolicy';
import { COMMON_PASSWORD_FINGERPRINTS } from '#lib/access/commonPasswords';
import { commonPasswordsOfPolicyLength, packedFingerprints } from '../../scripts/build-common-passwords';

const USER = 'night-operator';

describe('new password policy (issue 12 item 10)', () => {
  it.each([
    ['twelve spaces', ' '.repeat(12), 'must use at least 5 different characters'],
    ['twelve NULs', '\u0000'.repeat(12), 'must not contain control characters'],
    ['twelve zero-width spaces', '\u200b'.repeat(12), 'must not contain invisible format characters (such as zero-width spaces)'],
    ['twelve zero-width joiners', '\u200d'.repeat(12), 'must use at least 5 different characters'],
    ['a tab inside', 'Quiet\tharbour-lantern', 'must not contain control characters'],
    ['a lone surrogate', 'Quiet-harbour-\ud800', 'must be well-formed Unicode (no lone surrogates)'],
    ['an unassigned code point', 'Quiet-harbour-\u0378', 'must not contain unassigned characters'],
    ['aaaaaaaaaaaa', 'aaaaaaaaaaaa', 'must use at least 5 different characters'],
    ['password1234', 'password1234', 'is a commonly used password'],
    ['a common password in capitals', 'PASSWORD1234', 'is a commonly used password'],
    ['the username', USER, 'must not contain the username'],
    ['the username inside, in other case', `My-${USER.toUpperCase()}-2024`, 'must not contain the username'],
    ['a repeated chunk', 'Tiger!Tiger!Tiger!', 'must not be a shorter sequence repeated'],
    ['a run of the alphabet', 'abcdefghijklm', 'must not be a run of consecutive characters or keyboard keys'],
    ['digits counting up', '234567890123', 'must not be a run of consecutive characters or keyboard keys'],
    ['a keyboard row', 'QWERTYUIOPASDF', 'must not be a run of consecutive characters or keyboard keys'],
  ])('refuses %s, naming the rule', (_case, password, rule) => {
    expect(passwordProblem(password, USER)).toBe(rule);
  });

  it.each([
    'Quiet-harbour-lantern-47',
    'correct horse battery staple',
    'Überprüfung-der-Straße-9',
    'パスワードは長くて安全です',
    'tea 🍵 at four, not five',
    'family 👨‍👩‍👧 photo album 2019',
  ])('accepts %j', (password) => {
    expect(passwordProblem(password, USER)).toBeUndefined();
  });

  it('checks the NFC form: a decomposed username inside is still the username', () => {
    expect(passwordProblem('Bienvenue-jose\u0301-2024', 'josé')).toBe('must not contain the username');
  });

  it('carries exactly the long entries of the maintained list (else: npm run build:passwords)', () => {
    const entries = commonPasswordsOfPolicyLength();
    expect(entries.length).toBeGreaterThan(200);
    expect(COMMON_PASSWORD_FINGERPRINTS).toBe(packedFingerprints(entries));
    for (const entry of entries) expect(passwordProblem(entry, USER)).toBe('is a commonly used password');
  });
});
