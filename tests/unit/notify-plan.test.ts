import { describe, expect, it } from 'vitest';
import { digestId } from '#lib/notify/pure/digest';
import { dueForRepeat, planDigests, repeatSlot, targetsOf } from '#lib/notify/pure/plan';
import type { Audience, Notice, NotifiedAlarm } from '#lib/notify/types';

const RUN = '2026-11-22T10:00:00.000Z';
const NEXT = '2026-11-22T10:01:00.000Z';
const audience: Audience = { sendEmail: true, emails: ['ops@example.com'], channelIds: ['c1', 'c2'] };

const alarm = (sn: string, raisedAt = RUN): NotifiedAlarm => ({
  id: `w1:${sn}`, devicesn: sn, deviceid: `id-${sn}`, severity: 2, region: 'EMEA', location: 'London', room: 'Room 1', raisedAt,
});
const notice = (sn: string, overrides: Partial<Notice> = {}): Notice => ({
  id: `w1:${sn}:${RUN}:raised`,
  type: 'alarms.raised',
  at: RUN,
  alarm: alarm(sn),
  watcher: { id: 'w1', description: 'offline', severity: 2, type: 'offline' },
  audience,
  ...overrides,
});

describe('delivery planning', () => {
  it('makes one digest per watcher, type and run, to the own addresses and each channel', () => {
    const drafts = planDigests(Array.from({ length: 30 }, (_, i) => notice(`SN${i}`)));
    expect(drafts.map((d) => d.target)).toEqual([
      { kind: 'email', to: ['ops@example.com'] },
      { kind: 'channel', channelId: 'c1' },
      { kind: 'channel', channelId: 'c2' },
    ]);
    expect(new Set(drafts.map((d) => d.digest.id)).size).toBe(1);
    expect(drafts[0]!.digest.id).not.toBe(digestId('w1', 'alarms.raised', RUN)); // fixed by the notices it carries too
    expect(drafts.every((d) => d.digest.total === 30 && d.status === 'pending')).toBe(true);
  });

  it('keeps raised, cleared, other runs and other watchers in their own digests', () => {
    const drafts = planDigests([
      notice('A'),
      notice('B', { type: 'alarms.cleared', id: 'x' }),
      notice('C', { at: NEXT }),
      notice('D', { watcher: { id: 'w2', description: '', severity: 1, type: 'offline' }, audience: { ...audience, channelIds: [] } }),
    ]);
    expect(drafts.filter((d) => d.target.kind === 'email').map((d) => [d.digest.watcher?.id, d.digest.type, d.digest.at, d.digest.total])).toEqual([
      ['w1', 'alarms.raised', RUN, 1],
      ['w1', 'alarms.cleared', RUN, 1],
      ['w1', 'alarms.raised', NEXT, 1],
      ['w2', 'alarms.raised', RUN, 1],
    ]);
  });

  it('plans the same delivery ids for the same notices, and new ones for a notice that came late (index lag)', () => {
    const all = planDigests([notice('A'), notice('B'), notice('C')]).map((d) => d.id);
    expect(planDigests([notice('C'), notice('A'), notice('B')]).map((d) => d.id)).toEqual(all);
    expect(new Set(all).size).toBe(3);
    // a notice of the same run the notifier saw only later gets a digest of its own, never one already stored without it
    const late = planDigests([notice('D')]).map((d) => d.id);
    expect(late.some((id) => all.includes(id))).toBe(false);
    expect(planDigests([notice('A'), notice('B')]).map((d) => d.id).some((id) => all.includes(id))).toBe(false);
  });

  it('records a digest whose alarms are all silenced as suppressed, and leaves silenced alarms out of the others', () => {
    expect(planDigests([notice('A', { silenced: true })]).every((d) => d.status === 'suppressed')).toBe(true);
    const mixed = planDigests([notice('A', { silenced: true }), notice('B')]);
    expect(mixed.every((d) => d.status === 'pending' && d.digest.alarms.map((a) => a.devicesn).join() === 'B')).toBe(true);
  });

  it('sends no e-mail of its own when the watcher has sendEmail false, and each channel once', () => {
    expect(targetsOf({ sendEmail: false, emails: ['a@example.com'], channelIds: ['c1', 'c1'] })).toEqual([{ kind: 'channel', channelId: 'c1' }]);
    expect(targetsOf({ sendEmail: true, emails: [], channelIds: [] })).toEqual([]);
  });
});

describe('repeat', () => {
  it('re-notifies alarms open at least one interval, once per slot', () => {
    const now = Date.parse('2026-11-22T12:00:30.000Z');
    const open = [alarm('old', '2026-11-22T10:30:00.000Z'), alarm('fresh', '2026-11-22T11:30:00.000Z')];
    expect(dueForRepeat(open, now, 3600).map((a) => a.devicesn)).toEqual(['old']);
    expect(repeatSlot(now, 3600)).toBe(repeatSlot(Date.parse('2026-11-22T12:59:59.000Z'), 3600));
    expect(repeatSlot(now, 3600)).not.toBe(repeatSlot(Date.parse('2026-11-22T13:00:00.000Z'), 3600));
  });
});
