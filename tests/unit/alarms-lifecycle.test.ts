import { describe, expect, it } from 'vitest';
import { historyFilter, historyRecord } from '#lib/alarms/pure/history';
import { notificationGate, transitionNotice } from '#lib/notify/pure/notice';
import { planAlarms, type AlarmPlan } from '#lib/alarms/engine/pure/plan';
import { historyDays, historyExpiry } from '#lib/shared/retention';
import { matches, silenceStatus, silencedBy, silenceWindow, type Silence } from '#lib/alarms/pure/silences';
import { parseAlarmId, type OpenAlarm } from '#lib/alarms/types';
import { availabilityWindow } from '#lib/rollups/pure/availability';
import type { WatcherRecord } from '#lib/watchers/types';
import { storedDevice as device, T0, watcherRecord as watcher } from '../support/records';

const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const silence = (overrides: Partial<Silence> = {}): Silence => ({
  id: 's1',
  matchers: { room: 'Room 1' },
  startsAt: T0,
  endsAt: at(3600),
  comment: 'maintenance',
  createdBy: 'api-key',
  createdAt: T0,
  ...overrides,
});

/** The alarm watcher w1 raised for device a at T0. */
const alarm: OpenAlarm = {
  state: 'firing',
  watcherId: 'w1',
  devicesn: 'a',
  deviceid: 'id-a',
  severity: 2,
  region: 'EMEA',
  location: 'London',
  room: 'Room 1',
  raisedAt: T0,
  notify: { sendEmail: true, emails: ['ops@example.com'] },
};

/** The open alarms after a plan is carried out: what the next evaluation reads. */
const apply = (open: OpenAlarm[], plan: AlarmPlan): OpenAlarm[] => {
  const key = (a: OpenAlarm) => `${a.watcherId}:${a.devicesn}`;
  const gone = new Set([...plan.clear.map((c) => key(c.alarm)), ...plan.drop.map(key), ...plan.raise.map((r) => key(r.alarm))]);
  const updated = new Map(plan.update.map((a) => [key(a), a]));
  return [...open.filter((a) => !gone.has(key(a))).map((a) => updated.get(key(a)) ?? a), ...plan.raise.map((r) => r.alarm), ...plan.pend];
};

const run = (open: OpenAlarm[], now: string, options: { connected: boolean; w?: WatcherRecord; silences?: Silence[] }) => {
  const plan = planAlarms({ watchers: [options.w ?? watcher()], devices: [device('a', options.connected)], open, now, silences: options.silences });
  return { plan, open: apply(open, plan) };
};

describe('alarm state machine: pending period', () => {
  const pending60 = watcher({ pendingSeconds: 60 });

  it('goes pending (not firing, no device severity) when the watcher has a pending period', () => {
    const { plan } = run([], T0, { connected: false, w: pending60 });
    expect(plan.raise).toEqual([]);
    expect(plan.pend).toEqual([expect.objectContaining({ state: 'pending', pendingSince: T0, firesAt: at(60), raisedAt: T0 })]);
    expect(plan.worst.size).toBe(0);
    expect(plan.severities).toEqual([]);
  });

  it('stays pending while the period has not passed, then fires once it has: pending -> firing', () => {
    const first = run([], T0, { connected: false, w: pending60 });
    const early = run(first.open, at(59), { connected: false, w: pending60 });
    expect(early.plan).toMatchObject({ raise: [], pend: [], drop: [], clear: [], update: [] });
    const fired = run(early.open, at(61), { connected: false, w: pending60 });
    expect(fired.plan.raise).toEqual([
      expect.objectContaining({ fromPending: T0, silencedBy: [], alarm: expect.objectContaining({ state: 'firing', raisedAt: at(61), pendingSince: T0 }) }),
    ]);
    expect(fired.plan.worst.get('a')).toBe(2);
    expect(fired.open).toEqual([expect.objectContaining({ state: 'firing' })]);
    expect(fired.open[0]).not.toHaveProperty('firesAt');
  });

  it('drops a pending alarm without mail when the condition stops first: pending -> gone', () => {
    const first = run([], T0, { connected: false, w: pending60 });
    const back = run(first.open, at(30), { connected: true, w: pending60 });
    expect(back.plan.drop).toEqual([expect.objectContaining({ state: 'pending', devicesn: 'a' })]);
    expect(back.plan.clear).toEqual([]);
    expect(back.open).toEqual([]);
  });

  it('drops a pending alarm whose watcher is deactivated', () => {
    const first = run([], T0, { connected: false, w: pending60 });
    const off = run(first.open, at(30), { connected: false, w: { ...pending60, active: false } });
    expect(off.plan.drop).toHaveLength(1);
    expect(off.plan.clear).toEqual([]);
  });

  it('follows a changed pendingSeconds: a shorter period fires at once, a longer one moves firesAt', () => {
    const first = run([], T0, { connected: false, w: pending60 });
    const shorter = run(first.open, at(20), { connected: false, w: watcher({ pendingSeconds: 10 }) });
    expect(shorter.plan.raise).toHaveLength(1);
    const longer = run(first.open, at(20), { connected: false, w: watcher({ pendingSeconds: 600 }) });
    expect(longer.plan.update).toEqual([expect.objectContaining({ state: 'pending', firesAt: at(600) })]);
  });

  it('fires at once without a pending period, and clears: firing -> cleared', () => {
    const raised = run([], T0, { connected: false });
    expect(raised.plan.raise).toEqual([expect.objectContaining({ alarm: expect.objectContaining({ state: 'firing', raisedAt: T0 }) })]);
    expect(raised.plan.raise[0]).not.toHaveProperty('fromPending');
    const cleared = run(raised.open, at(90), { connected: true });
    expect(cleared.plan.clear).toEqual([expect.objectContaining({ reason: 'resolved', silencedBy: [] })]);
    expect(cleared.open).toEqual([]);
  });

  it('is idempotent at every step: planning again at the same time changes nothing', () => {
    let open: OpenAlarm[] = [];
    for (const [seconds, connected] of [[0, false], [30, false], [61, false], [120, true]] as const) {
      open = run(open, at(seconds), { connected, w: pending60 }).open;
      const again = run(open, at(seconds), { connected, w: pending60 }).plan;
      expect(again).toMatchObject({ raise: [], pend: [], drop: [], clear: [], update: [] });
    }
  });
});

describe('alarm state machine: silences and acknowledgement', () => {
  it('marks a raise and a clear silenced by every active matching silence', () => {
    const silences = [silence(), silence({ id: 's0', matchers: { devicesn: 'a' } }), silence({ id: 'other', matchers: { room: 'Room 9' } })];
    const raised = run([], T0, { connected: false, silences });
    expect(raised.plan.raise[0]!.silencedBy).toEqual(['s0', 's1']);
    const cleared = run(raised.open, at(60), { connected: true, silences });
    expect(cleared.plan.clear[0]!.silencedBy).toEqual(['s0', 's1']);
  });

  it('a silence that has not started or has ended silences nothing', () => {
    const future = silence({ startsAt: at(600), endsAt: at(1200) });
    const ended = silence({ startsAt: at(-600), endsAt: at(-1) });
    expect(run([], T0, { connected: false, silences: [future, ended] }).plan.raise[0]!.silencedBy).toEqual([]);
  });

  it('a silenced alarm still counts for device and room status', () => {
    const { plan } = run([], T0, { connected: false, silences: [silence()] });
    expect(plan.worst.get('a')).toBe(2);
  });

  it('keeps the acknowledgement of an open alarm across evaluations and when a pending alarm fires', () => {
    const acknowledgement = { acknowledgedAt: at(5), acknowledgedBy: 'ana', ackComment: 'on it' };
    const pending = run([], T0, { connected: false, w: watcher({ pendingSeconds: 60 }) }).open.map((a) => ({ ...a, acknowledgement }));
    const fired = run(pending, at(60), { connected: false, w: watcher({ pendingSeconds: 60 }) });
    expect(fired.plan.raise[0]!.alarm.acknowledgement).toEqual(acknowledgement);
    const firing = run([], T0, { connected: false }).open.map((a) => ({ ...a, acknowledgement }));
    expect(run(firing, at(60), { connected: false }).plan).toMatchObject({ raise: [], update: [], clear: [] });
  });
});

describe('notifications of transitions', () => {

  it('a silenced transition sends nothing: its notice is marked silenced and recorded as suppressed', () => {
    const silenced = transitionNotice('raised', alarm, alarm.notify, T0, ['s1']);
    expect(silenced.delivery).toBe('suppressed');
    expect(silenced.notice).toMatchObject({ type: 'alarms.raised', silenced: true });
  });

  it('an unsilenced transition notifies the recipients and channels and records them', () => {
    const notice = transitionNotice('cleared', alarm, alarm.notify, at(60), [], 'resolved');
    expect(notice.delivery).toEqual(['ops@example.com']);
    expect(notice.notice).toMatchObject({ type: 'alarms.cleared', audience: { emails: ['ops@example.com'] } });
    expect(transitionNotice('raised', alarm, { ...alarm.notify, channelIds: ['c1'] }, T0, []).delivery).toEqual(['ops@example.com', 'channel:c1']);
  });

  it('records an empty list when the watcher asked for no mail', () => {
    expect(transitionNotice('raised', alarm, { sendEmail: false, emails: [] }, T0, [])).toEqual({ notice: undefined, delivery: [] });
  });

  it('ack rules: an acknowledged alarm is never reminded of, but its raise and clear are not suppressed', () => {
    const acked = { ...alarm, acknowledgement: { acknowledgedAt: T0, acknowledgedBy: 'api-key' } };
    expect(notificationGate(acked, [])).toEqual({ suppressed: false, acknowledged: true, remind: false });
    expect(notificationGate(alarm, [])).toEqual({ suppressed: false, acknowledged: false, remind: true });
    expect(notificationGate(alarm, ['s1'])).toEqual({ suppressed: true, acknowledged: false, remind: false });
    expect(transitionNotice('cleared', acked, alarm.notify, T0, []).delivery).toEqual(['ops@example.com']);
  });
});

describe('silences', () => {
  it('status follows startsAt and endsAt (end exclusive)', () => {
    const s = silence({ startsAt: at(10), endsAt: at(20) });
    expect([at(9), at(10), at(19), at(20)].map((now) => silenceStatus(s, now))).toEqual(['pending', 'active', 'active', 'expired']);
  });

  it('matches only when every given matcher agrees', () => {
    const alarm = { region: 'EMEA', location: 'London', room: 'Room 1', devicesn: 'a', watcherId: 'w1' };
    expect(matches({ region: 'EMEA', room: 'Room 1' }, alarm)).toBe(true);
    expect(matches({ region: 'EMEA', watcherId: 'w2' }, alarm)).toBe(false);
    expect(silencedBy(alarm, [silence({ matchers: { region: 'emea' } })], T0)).toEqual([]);
  });

  it('window: startsAt defaults to now; endsAt after it, within 90 days, not past', () => {
    expect(silenceWindow({ matchers: { room: 'A' }, endsAt: at(60) }, T0)).toEqual({ startsAt: T0, endsAt: at(60) });
    const problems = (input: Parameters<typeof silenceWindow>[0]) => ('problems' in silenceWindow(input, T0) ? (silenceWindow(input, T0) as { problems: { field: string }[] }).problems.map((p) => p.field) : []);
    expect(problems({ matchers: {}, endsAt: at(60) })).toEqual(['body.matchers']);
    expect(problems({ matchers: { room: 'A' }, startsAt: at(60), endsAt: at(60) })).toEqual(['body.endsAt']);
    expect(problems({ matchers: { room: 'A' }, endsAt: at(90 * 86400 + 1) })).toEqual(['body.endsAt']);
    expect(problems({ matchers: { room: 'A' }, endsAt: at(90 * 86400) })).toEqual([]);
    expect(problems({ matchers: { room: 'A' }, startsAt: at(-7200), endsAt: at(-3600) })).toEqual(['body.endsAt']);
  });
});

describe('history records and retention', () => {
  it('a cleared alarm becomes a record with its duration, acknowledgement and deliveries', () => {
    const record = historyRecord({
      ...alarm,
      acknowledgement: { acknowledgedAt: at(10), acknowledgedBy: 'ana' },
      notified: { raised: ['ops@example.com'], cleared: 'suppressed' },
      clearedAt: at(125),
      clearReason: 'resolved',
    });
    // the alarm's own fields stay; its state and notification targets do not
    const { state: _state, notify: _notify, ...raised } = alarm;
    expect(record).toEqual({
      id: 'w1:a',
      ...raised,
      clearedAt: at(125),
      reason: 'resolved',
      durationSeconds: 125,
      acknowledgedAt: at(10),
      acknowledgedBy: 'ana',
      notified: { raised: ['ops@example.com'], cleared: 'suppressed' },
    });
  });

  it('a record carries the ack and unack events, and leaves out an acknowledgement whose ackUntil passed before the clear', () => {
    const ackEvents = [{ action: 'ack' as const, at: at(10), by: 'ana', ackUntil: at(60) }];
    const cleared = (ackUntil: string) =>
      historyRecord({ ...alarm, acknowledgement: { acknowledgedAt: at(10), acknowledgedBy: 'ana', ackUntil }, ackEvents, clearedAt: at(125), clearReason: 'resolved' });
    const lapsed = cleared(at(60));
    expect(lapsed.acknowledgements).toEqual(ackEvents);
    expect(lapsed).not.toHaveProperty('acknowledgedBy');
    expect(cleared(at(600))).toMatchObject({ acknowledgedBy: 'ana', ackUntil: at(600), acknowledgements: ackEvents });
    expect(historyRecord({ ...alarm, clearedAt: at(125), clearReason: 'resolved' })).not.toHaveProperty('acknowledgements');
  });

  it('ALARM_HISTORY_DAYS sets the retention (default 90)', () => {
    expect(historyDays({})).toBe(90);
    expect(historyDays({ ALARM_HISTORY_DAYS: '7' })).toBe(7);
    expect(historyDays({ ALARM_HISTORY_DAYS: 'x' })).toBe(90);
    expect(historyExpiry(T0, 7)).toBe(Date.parse(T0) / 1000 + 7 * 86400);
  });
});

describe('history and availability queries', () => {
  const NOW = Date.parse(T0);

  it('history defaults to the retention up to now; room needs location and region, location needs region', () => {
    expect(historyFilter({}, NOW, 90)).toEqual({ from: new Date(NOW - 90 * 86_400_000).toISOString(), to: T0 });
    expect(historyFilter({ to: at(-3600) }, NOW, 7)).toEqual({ from: new Date(NOW - 3_600_000 - 7 * 86_400_000).toISOString(), to: at(-3600) });
    expect(historyFilter({ region: 'all', watcherId: 'w1' }, NOW, 90)).toMatchObject({ watcherId: 'w1' });
    expect(historyFilter({ region: 'all' }, NOW, 90)).not.toHaveProperty('region');
    const fieldsOf = (query: Parameters<typeof historyFilter>[0]) => {
      const result = historyFilter(query, NOW, 90);
      return 'problems' in result ? result.problems.map((p) => p.field) : [];
    };
    expect(fieldsOf({ room: 'A' })).toEqual(['queryStringParameters.room']);
    expect(fieldsOf({ region: 'R', room: 'A' })).toEqual(['queryStringParameters.room']);
    expect(fieldsOf({ location: 'L' })).toEqual(['queryStringParameters.location']);
    expect(fieldsOf({ region: 'R', location: 'L', room: 'A' })).toEqual([]);
    expect(fieldsOf({ from: at(10), to: at(0) })).toEqual(['queryStringParameters.from']);
  });

  it('availability window: last 24 hours by default, cut at now, at most 31 days, from before to', () => {
    expect(availabilityWindow({}, NOW)).toEqual({ from: at(-86_400), to: T0 });
    expect(availabilityWindow({ to: at(3600) }, NOW)).toEqual({ from: at(-86_400), to: T0 });
    expect(availabilityWindow({ from: at(-31 * 86_400) }, NOW)).toEqual({ from: at(-31 * 86_400), to: T0 });
    expect(availabilityWindow({ from: at(-31 * 86_400 - 1) }, NOW)).toHaveProperty('problems');
    expect(availabilityWindow({ from: at(-10), to: at(-20) }, NOW)).toHaveProperty('problems');
    expect(availabilityWindow({ from: at(10) }, NOW)).toHaveProperty('problems');
  });

  it('an alarm id is watcherId:devicesn, split at the first colon', () => {
    expect(parseAlarmId('w1:VD:01')).toEqual({ watcherId: 'w1', devicesn: 'VD:01' });
    expect(parseAlarmId('no-colon')).toBeUndefined();
    // a serial whose sort key DynamoDB would refuse (over 1,024 UTF-8 bytes) names no alarm
    expect(parseAlarmId(`w1:${'\u{1F600}'.repeat(300)}`)).toBeUndefined();
    expect(parseAlarmId(`w1:${'\u{1F600}'.repeat(254)}`)).toEqual({ watcherId: 'w1', devicesn: '\u{1F600}'.repeat(254) });
    expect(parseAlarmId(':x')).toBeUndefined();
    expect(parseAlarmId('w1:')).toBeUndefined();
  });
});
