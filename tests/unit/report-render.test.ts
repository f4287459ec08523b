import { describe, expect, it } from 'vitest';
import type { HistoryRecord } from '#lib/alarms/pure/history';
import { webhookBody } from '#lib/notify/pure/formats';
import { digestMail } from '#lib/notify/mail/pure/render';
import { buildReport, LONGEST_OUTAGES, accessScopeLabel, WORST_ROOMS } from '#lib/reports/pure/build';
import { reportDigest, reportDrafts } from '#lib/reports/pure/drafts';
import { reportHtml, reportPayload, reportText } from '#lib/reports/pure/render';
import type { ReportSchedule } from '#lib/reports/types';

// Issue 28 item 5: what a fleet report tells, as a mail's text and HTML parts and as a webhook payload.

const HOSTILE = '<script>alert(1)</script> & "Room" \'1\'';
const schedule: Pick<ReportSchedule, 'id' | 'name' | 'period' | 'timeZone' | 'scope'> = {
  id: 'sched-1',
  name: 'Weekly <b>EMEA</b>',
  period: 'weekly',
  timeZone: 'Europe/Berlin',
  scope: [{ region: 'EMEA' }, { region: 'AMER', location: 'Austin' }],
};
const cleared = (n: number, watcherId: string, durationSeconds: number, room = `Room ${n}`): HistoryRecord => ({
  id: `${watcherId}:SN${n}`,
  watcherId,
  severity: watcherId === 'w-offline' ? 1 : 3,
  devicesn: `SN${n}`,
  deviceid: `D${n}`,
  region: 'EMEA',
  location: 'Berlin',
  room,
  raisedAt: '2026-03-24T09:00:00.000Z',
  clearedAt: new Date(Date.parse('2026-03-24T09:00:00.000Z') + durationSeconds * 1000).toISOString(),
  reason: 'resolved',
  durationSeconds,
  notified: { raised: [], cleared: [] },
  description: watcherId === 'w-offline' ? 'device offline' : 'in call too long',
});
const rooms = Array.from({ length: 14 }, (_, i) => ({ region: 'EMEA', location: 'Berlin', room: i === 0 ? HOSTILE : `Room ${i}`, deviceCount: 2, availability: i / 20 }));
const history = [cleared(1, 'w-offline', 3_600, HOSTILE), ...Array.from({ length: 12 }, (_, i) => cleared(i + 2, 'w-offline', 60 * (i + 1))), cleared(20, 'w-call', 600), cleared(21, 'w-gone', 30)];
const report = buildReport(schedule, {
  from: '2026-03-23T07:00:00.000Z',
  to: '2026-03-30T06:00:00.000Z',
  availability: { overall: 0.9731, rooms },
  history,
  truncated: false,
  kinds: new Map([
    ['w-offline', 'offline'],
    ['w-call', 'in-call'],
  ]),
  generatedAt: '2026-03-30T06:05:00.000Z',
});

describe('fleet report content', () => {
  it('keeps the worst rooms first, at most ten, and counts every room observed', () => {
    expect(report.availability.rooms).toBe(14);
    expect(report.availability.worstRooms).toHaveLength(WORST_ROOMS);
    expect(report.availability.worstRooms[0]!.room).toBe(HOSTILE);
  });

  it('counts cleared alarms by watcher kind and by severity, a deleted watcher as unknown', () => {
    expect(report.alarms.total).toBe(15);
    expect(report.alarms.bySeverity).toEqual({ Critical: 13, Minor: 2 });
    expect(report.alarms.byKind.map((k) => [k.kind, k.count])).toEqual([
      ['offline', 13],
      ['in-call', 1],
      ['unknown', 1],
    ]);
  });

  it('lists the longest outages of offline watchers only, longest first, at most ten', () => {
    expect(report.longestOutages).toHaveLength(LONGEST_OUTAGES);
    expect(report.longestOutages[0]).toMatchObject({ room: HOSTILE, durationSeconds: 3_600 });
    expect(report.longestOutages.map((o) => o.durationSeconds)).toEqual([...report.longestOutages.map((o) => o.durationSeconds)].sort((a, b) => b - a));
    expect(report.longestOutages.every((o) => o.devicesn !== 'SN20')).toBe(true);
  });

  it('names its scope in words', () => {
    expect(accessScopeLabel([])).toBe('the whole fleet');
    expect(report.scope).toBe('EMEA, AMER / Austin');
  });
});

describe('fleet report rendering', () => {
  it('tells the same in the text part as in the HTML part', () => {
    const text = reportText(report);
    for (const line of ['Availability: 97.31% over 14 rooms', 'Alarms cleared: 15 (Critical 13, Minor 2)', 'Longest outages', 'down 1h']) expect(text).toContain(line);
    const html = reportHtml(report);
    expect(html).toContain('Availability: 97.31% over 14 rooms');
    expect(html).toContain('down 1h');
  });

  it('escapes hostile room and schedule names in the HTML part, never passing markup through', () => {
    const html = reportHtml(report);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>EMEA</b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Room&quot; &#39;1&#39;');
    expect(reportText(report)).toContain(HOSTILE);
  });

  it('mails a report digest with both parts and posts it whole as the json webhook payload', () => {
    const digest = reportDigest(report, report.from);
    const { draft } = reportDrafts(digest, ['ch-1'])[0]!;
    const mail = digestMail(digest, draft.id, ['ops@example.com']);
    expect(mail.subject).toMatch(/^\[Report\] Weekly <b>EMEA<\/b>: weekly fleet report, 97\.31% available, 15 alarms/);
    expect(mail.text).toBe(reportText(report));
    expect(mail.html).toBe(reportHtml(report));
    expect(JSON.parse(webhookBody(digest, 'json', draft.id, '2026-03-30T06:06:00.000Z'))).toEqual(reportPayload(report, draft.id, '2026-03-30T06:06:00.000Z'));
    const slack = JSON.parse(webhookBody(digest, 'slack', draft.id, '2026-03-30T06:06:00.000Z')) as { text: string };
    expect(slack.text).not.toContain('<b>');
  });

  it('fixes the delivery ids by schedule, period and channel, and sends once per channel', () => {
    const again = reportDrafts(reportDigest(report, report.from), ['ch-1', 'ch-2', 'ch-1']);
    expect(again.map((d) => d.channelId)).toEqual(['ch-1', 'ch-2']);
    expect(again[0]!.draft.id).toBe(reportDrafts(reportDigest(report, report.from), ['ch-1'])[0]!.draft.id);
    expect(reportDrafts(reportDigest(report, '2026-03-30T06:00:00.000Z'), ['ch-1'])[0]!.draft.id).not.toBe(again[0]!.draft.id);
  });
});
