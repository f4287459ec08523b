import { describe, expect, it } from 'vitest';
import { headerText } from '#lib/alarms/header';
import { mailFor } from '#lib/alarms/mail';
import type { Alarm } from '#lib/alarms/types';

const alarm: Alarm & { notify: { sendEmail: boolean; emails: string[] } } = {
  watcherId: 'w1',
  devicesn: 'sn\r\n1',
  deviceid: 'id-1',
  severity: 2,
  region: 'EMEA',
  location: 'London\u0085',
  room: 'Room\u00001',
  raisedAt: '2024-06-11T10:00:00.000Z',
  description: 'offline\r\nBcc: attacker@example.com',
  notify: { sendEmail: true, emails: ['ops@example.com'] },
};

describe('mail headers', () => {
  it('a subject never carries CR, LF or any other control character, whatever the alarm holds', () => {
    const subject = mailFor('raised', alarm, alarm.notify, alarm.raisedAt)?.subject ?? '';
    expect(subject).not.toMatch(/[\p{Cc}\p{Cs}]/u);
    expect(subject).toBe('[Major] RAISED: offline Bcc: attacker@example.com on sn 1 (EMEA / London  / Room 1)');
  });

  it('headerText turns each run of control characters or lone surrogates into one space', () => {
    expect(headerText('a\r\n\tb\u007fc\ud800d')).toBe('a b c d');
    expect(headerText('plain subject')).toBe('plain subject');
  });
});
