import { describe, expect, it } from 'vitest';
import { headerText } from '#lib/shared/header';
import { digestMail } from '#lib/notify/mail/pure/render';
import type { Digest } from '#lib/notify/types';

const digest: Digest = {
  type: 'alarms.raised',
  id: 'd1',
  at: '2024-06-11T10:00:00.000Z',
  watcher: { id: 'w1', description: 'offline\r\nBcc: attacker@example.com', severity: 2, type: 'offline\r\nBcc: attacker@example.com' },
  alarms: [],
  total: 2,
  rooms: 1,
  scope: 'EMEA / London\u0085 / Room\u00001',
};

describe('mail headers', () => {
  it('a subject never carries CR, LF or any other control character, whatever the alarm holds', () => {
    const { subject } = digestMail(digest, 'delivery-1', ['ops@example.com']);
    expect(subject).not.toMatch(/[\p{Cc}\p{Cs}]/u);
    expect(subject).toBe('[Major] 2 devices offline Bcc: attacker@example.com in EMEA / London  / Room 1');
  });

  it('headerText turns each run of control characters or lone surrogates into one space', () => {
    expect(headerText('a\r\n\tb\u007fc\ud800d')).toBe('a b c d');
    expect(headerText('plain subject')).toBe('plain subject');
  });
});
