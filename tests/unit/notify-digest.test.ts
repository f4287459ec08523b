import { describe, expect, it } from 'vitest';
import { buildDigest, digestId, durationOf, subjectOf } from '#lib/notify/pure/digest';
import { payloadOf, webhookBody } from '#lib/notify/pure/formats';
import { digestMail } from '#lib/notify/mail/pure/render';
import type { NotifiedAlarm, NotifiedWatcher } from '#lib/notify/types';

const AT = '2026-11-22T10:00:00.000Z';
const watcher: NotifiedWatcher = { id: 'w1', description: 'Video device offline', severity: 2, type: 'offline' };

const alarm = (n: number, room = `Room ${n % 3}`, location = 'London', region = 'EMEA'): NotifiedAlarm => ({
  id: `w1:SN${String(n).padStart(4, '0')}`,
  devicesn: `SN${String(n).padStart(4, '0')}`,
  deviceid: `dev-${n}`,
  severity: 2,
  region,
  location,
  room,
  raisedAt: '2026-11-22T09:00:00.000Z',
});

describe('digest building', () => {
  it('says how many devices and where in the subject: [Major] 12 devices offline in EMEA / London (3 rooms)', () => {
    const digest = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: Array.from({ length: 12 }, (_, i) => alarm(i)) });
    expect(subjectOf(digest)).toBe('[Major] 12 devices offline in EMEA / London (3 rooms)');
  });

  it('names one room fully, a region when locations differ, and counts regions when they differ', () => {
    const one = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(1, 'Room 7')] });
    expect(subjectOf(one)).toBe('[Major] 1 device offline in EMEA / London / Room 7');
    const region = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(1, 'A', 'London'), alarm(2, 'A', 'Berlin')] });
    expect(subjectOf(region)).toBe('[Major] 2 devices offline in EMEA (2 rooms)');
    const world = buildDigest({ type: 'alarms.cleared', at: AT, watcher, alarms: [alarm(1, 'A', 'London', 'EMEA'), alarm(2, 'A', 'Austin', 'AMER')] });
    expect(subjectOf(world)).toBe('[Major] Cleared: 2 devices offline in 2 regions (2 rooms)');
  });

  it('lists the first 50 alarms sorted by room and counts the rest as "and N more"', () => {
    const alarms = Array.from({ length: 120 }, (_, i) => alarm(i));
    const digest = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [...alarms].reverse() });
    expect(digest.alarms).toHaveLength(50);
    expect(digest.total).toBe(120);
    expect(digest.alarms.map((a) => a.room)).toEqual([...Array(40).fill('Room 0'), ...Array(10).fill('Room 1')]);
    const mail = digestMail(digest, 'd1', ['ops@example.com']);
    expect(mail.text).toContain('and 70 more');
    expect(mail.html).toContain('and 70 more');
  });

  it('groups the mail by room, in a plain-text and an HTML part telling the same alarms', () => {
    const digest = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(1), alarm(2), alarm(4)] });
    const mail = digestMail(digest, 'delivery-1', ['ops@example.com']);
    expect(mail).toMatchObject({ id: 'delivery-1', to: ['ops@example.com'], subject: subjectOf(digest) });
    expect(mail.text.split('\n')).toEqual(expect.arrayContaining(['EMEA / London / Room 1 (2)', 'EMEA / London / Room 2 (1)']));
    expect(mail.text.indexOf('SN0001')).toBeLessThan(mail.text.indexOf('SN0004'));
    expect(mail.html).toContain('<h3>EMEA / London / Room 1 (2)</h3>');
    for (const sn of ['SN0001', 'SN0002', 'SN0004']) {
      expect(mail.text).toContain(sn);
      expect(mail.html).toContain(sn);
    }
  });

  it('escapes names in the HTML part', () => {
    const digest = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(1, '<script>x</script>')] });
    const { html } = digestMail(digest, 'd', ['a@example.com']);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('says how long each cleared alarm was down', () => {
    const cleared = { ...alarm(1), clearedAt: '2026-11-22T12:05:30.000Z' };
    const digest = buildDigest({ type: 'alarms.cleared', at: AT, watcher, alarms: [cleared] });
    expect(digestMail(digest, 'd', ['a@example.com']).text).toContain('down 3h 5m');
    expect(durationOf('2026-11-22T09:00:00.000Z', '2026-11-22T09:00:42.000Z')).toBe('42s');
  });

  it('has an id fixed by watcher, type and run, whatever the alarms or their order', () => {
    const a = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(1), alarm(2)] });
    const b = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(2)] });
    expect(a.id).toBe(b.id);
    expect(a.id).toBe(digestId('w1', 'alarms.raised', AT));
    expect(digestId('w1', 'alarms.cleared', AT)).not.toBe(a.id);
    expect(digestId('w1', 'alarms.raised', '2026-11-22T10:01:00.000Z')).not.toBe(a.id);
  });

  it('lists an alarm given twice once', () => {
    const digest = buildDigest({ type: 'alarms.raised', at: AT, watcher, alarms: [alarm(1), alarm(1)] });
    expect(digest.total).toBe(1);
  });
});

describe('webhook bodies', () => {
  const digest = buildDigest({ type: 'alarms.cleared', at: AT, watcher, alarms: [{ ...alarm(1), clearedAt: AT }, alarm(2)] });

  it('json carries type, deliveryId, sentAt, the watcher and every listed alarm', () => {
    const body = JSON.parse(webhookBody(digest, 'json', 'del-1', AT));
    expect(body).toEqual(payloadOf(digest, 'del-1', AT));
    expect(body).toMatchObject({ type: 'alarms.cleared', deliveryId: 'del-1', sentAt: AT, watcher: { id: 'w1', description: 'Video device offline', severity: 2 }, totalAlarms: 2 });
    expect(body.alarms).toEqual([
      { id: 'w1:SN0001', devicesn: 'SN0001', deviceid: 'dev-1', region: 'EMEA', location: 'London', room: 'Room 1', severity: 2, raisedAt: alarm(1).raisedAt, clearedAt: AT },
      { id: 'w1:SN0002', devicesn: 'SN0002', deviceid: 'dev-2', region: 'EMEA', location: 'London', room: 'Room 2', severity: 2, raisedAt: alarm(2).raisedAt },
    ]);
  });

  it('slack sends text and blocks naming the same devices', () => {
    const body = JSON.parse(webhookBody(digest, 'slack', 'del-1', AT));
    expect(body.text).toBe(subjectOf(digest));
    expect(Array.isArray(body.blocks)).toBe(true);
    expect(JSON.stringify(body.blocks)).toContain('SN0001');
    expect(JSON.stringify(body.blocks)).toContain('SN0002');
  });

  it('teams sends an adaptive card message naming the same devices', () => {
    const body = JSON.parse(webhookBody(digest, 'teams', 'del-1', AT));
    expect(body.type).toBe('message');
    expect(body.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(body.attachments[0].content.type).toBe('AdaptiveCard');
    expect(JSON.stringify(body.attachments[0].content.body)).toContain('SN0002');
  });

  describe('markup in client text is shown, not followed (issue 24 item 10)', () => {
    const hostileWatcher: NotifiedWatcher = { id: 'w2', type: '<!here> offline', description: '<!channel> <https://evil.example/sso|Re-authenticate now> & [Re-authenticate](https://evil.example/sso)', severity: 1 };
    const hostile = buildDigest({ type: 'alarms.raised', at: AT, watcher: hostileWatcher, alarms: [alarm(1, '<@U123> *room*')] });
    /** Every string of a JSON document, wherever it is. */
    const strings = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

    it('slack gets &, < and > as entities in text, mrkdwn and plain_text', () => {
      const body = JSON.parse(webhookBody(hostile, 'slack', 'del-1', AT));
      for (const text of strings(body)) expect(text).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)/);
      expect(body.text).toContain('&lt;!here&gt; offline');
      expect(JSON.stringify(body.blocks)).toContain('&lt;!channel&gt; &lt;https://evil.example/sso|Re-authenticate now&gt; &amp; [');
      expect(JSON.stringify(body.blocks)).toContain('&lt;@U123&gt;');
    });

    it('teams gets Markdown punctuation escaped, so no link, mention or emphasis forms', () => {
      const body = JSON.parse(webhookBody(hostile, 'teams', 'del-1', AT));
      const texts = strings(body.attachments[0].content.body).filter((t) => t.includes('evil') || t.includes('U123') || t.includes('here'));
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text).not.toMatch(/(?<!\\)[[\]<>*_]/);
      expect(texts.join('\n')).toContain('\\[Re-authenticate\\](https://evil.example/sso)');
    });

    it('slack clips after escaping without cutting an entity', () => {
      const long = buildDigest({ type: 'alarms.raised', at: AT, watcher: { ...watcher, type: '<'.repeat(200) }, alarms: [alarm(1)] });
      const header = JSON.parse(webhookBody(long, 'slack', 'del-1', AT)).blocks[0].text.text as string;
      expect(header.length).toBeLessThanOrEqual(150);
      expect(header).toMatch(/(&lt;)+…$/);
    });
  });

  it('a test has no watcher and no alarms', () => {
    const body = JSON.parse(webhookBody({ type: 'test', id: 't', at: AT, alarms: [], total: 0, rooms: 0, scope: 'no rooms' }, 'json', 'del-2', AT));
    expect(body).toEqual({ type: 'test', deliveryId: 'del-2', sentAt: AT, summary: expect.any(String), alarms: [], totalAlarms: 0 });
  });
});
