import { describe, expect, it } from 'vitest';
import { planAlarms, roomsToRecompute, worstSeverityByDevice } from '#lib/alarms/engine/pure/plan';
import { evaluatorSettings, dueAt } from '#lib/alarms/engine/pure/settings';
import type { OpenAlarm } from '#lib/alarms/types';
import type { RoomAggregate, Severity, StoredDevice } from '#lib/devices/types';
import { noticeFor } from '#lib/notify/pure/notice';
import type { WatcherRecord } from '#lib/watchers/types';
import { roomAggregate, storedDevice, T0, watcherRecord } from '../support/records';
import { planRepair } from '#lib/alarms/engine/pure/repair';

const NOW = T0;
const LATER = '2024-06-11T10:01:00.000Z';

const device = storedDevice;
const watcher = (id: string, overrides: Partial<WatcherRecord> = {}) => watcherRecord({ id, ...overrides });

/** The open alarms a plan leaves: what the next evaluation reads. */
const applied = (open: OpenAlarm[], plan: ReturnType<typeof planAlarms>): OpenAlarm[] => {
  const cleared = new Set(plan.clear.map((c) => `${c.alarm.watcherId}:${c.alarm.devicesn}`));
  const updated = new Map(plan.update.map((a) => [`${a.watcherId}:${a.devicesn}`, a]));
  return [
    ...open.filter((a) => !cleared.has(`${a.watcherId}:${a.devicesn}`)).map((a) => updated.get(`${a.watcherId}:${a.devicesn}`) ?? a),
    ...plan.raise.map((r) => r.alarm),
  ];
};
const withSeverities = (devices: StoredDevice[], plan: ReturnType<typeof planAlarms>): StoredDevice[] =>
  devices.map((d) => {
    const change = plan.severities.find((s) => s.device.devicesn === d.devicesn);
    if (!change) return d;
    const { alarmSeverity: _old, ...rest } = d;
    return change.severity === undefined ? rest : { ...rest, alarmSeverity: change.severity };
  });

describe('planAlarms: transitions', () => {
  it('raises one alarm per device where an active watcher condition holds', () => {
    const plan = planAlarms({ watchers: [watcher('w1')], devices: [device('a', false), device('b', true)], open: [], now: NOW });
    expect(plan.raise.map((r) => r.alarm)).toEqual([
      expect.objectContaining({ watcherId: 'w1', devicesn: 'a', deviceid: 'id-a', severity: 2, room: 'Room 1', raisedAt: NOW, description: 'offline' }),
    ]);
    expect(plan.clear).toEqual([]);
  });

  it('evaluates only the devices a watcher targets, by id or serial number', () => {
    const devices = [device('a', false), device('b', false), device('c', false)];
    const plan = planAlarms({ watchers: [watcher('w1', { allDevices: false, devicesId: ['a', 'id-c'] })], devices, open: [], now: NOW });
    expect(plan.raise.map((r) => r.alarm.devicesn).sort()).toEqual(['a', 'c']);
  });

  it('raises nothing for an inactive watcher', () => {
    const plan = planAlarms({ watchers: [watcher('w1', { active: false })], devices: [device('a', false)], open: [], now: NOW });
    expect(plan.raise).toEqual([]);
  });

  it('is idempotent: planning again over the applied plan changes nothing', () => {
    const devices = [device('a', false), device('b', true), device('c', false, 'Room 2')];
    const watchers = [watcher('w1'), watcher('w2', { severity: 1, allDevices: false, devicesId: ['c'] })];
    const first = planAlarms({ watchers, devices, open: [], now: NOW });
    const second = planAlarms({ watchers, devices: withSeverities(devices, first), open: applied([], first), now: LATER });
    expect(first.raise).toHaveLength(3);
    expect(second).toMatchObject({ raise: [], clear: [], update: [], severities: [] });
  });

  it('keeps an open alarm with its first raisedAt while the condition holds', () => {
    const first = planAlarms({ watchers: [watcher('w1')], devices: [device('a', false)], open: [], now: NOW });
    const second = planAlarms({ watchers: [watcher('w1')], devices: [device('a', false, 'Room 1', 2)], open: applied([], first), now: LATER });
    expect(applied(applied([], first), second)[0]?.raisedAt).toBe(NOW);
  });

  it.each([
    ['the condition stops holding', [watcher('w1')], [device('a', true)], 'resolved'],
    ['the watcher is deactivated', [watcher('w1', { active: false })], [device('a', false)], 'watcher inactive'],
    ['the watcher is deleted', [], [device('a', false)], 'watcher deleted'],
    ['the device vanished', [watcher('w1')], [], 'device vanished'],
    ['the watcher no longer targets the device', [watcher('w1', { allDevices: false, devicesId: ['z'] })], [device('a', false)], 'resolved'],
  ] as const)('clears an open alarm when %s', (_case, watchers, devices, reason) => {
    const open = applied([], planAlarms({ watchers: [watcher('w1')], devices: [device('a', false)], open: [], now: NOW }));
    const plan = planAlarms({ watchers: [...watchers], devices: [...devices], open, now: LATER });
    expect(plan.clear).toEqual([expect.objectContaining({ alarm: open[0], reason })]);
    expect(plan.raise).toEqual([]);
  });

  it('mails the clear of a deleted watcher to the recipients stored on the alarm', () => {
    const open = applied([], planAlarms({ watchers: [watcher('w1', { emails: ['x@example.com'] })], devices: [device('a', false)], open: [], now: NOW }));
    const plan = planAlarms({ watchers: [], devices: [device('a', false)], open, now: LATER });
    expect(plan.clear[0]?.notify).toEqual({ sendEmail: true, emails: ['x@example.com'] });
  });

  it('updates, without a transition, an open alarm whose watcher changed severity', () => {
    const open = applied([], planAlarms({ watchers: [watcher('w1')], devices: [device('a', false)], open: [], now: NOW }));
    const plan = planAlarms({ watchers: [watcher('w1', { severity: 1 })], devices: [device('a', false, 'Room 1', 2)], open, now: LATER });
    expect(plan).toMatchObject({ raise: [], clear: [] });
    expect(plan.update).toEqual([expect.objectContaining({ severity: 1, raisedAt: NOW })]);
    expect(plan.severities).toEqual([{ device: expect.objectContaining({ devicesn: 'a' }), severity: 1 }]);
  });

  it('treats a watcher whose stored conditions do not parse as matching nothing', () => {
    const broken = watcher('w1', { operations: { type: 'device', operatorType: 'AND', conditions: [] } });
    const plan = planAlarms({ watchers: [broken], devices: [device('a', false)], open: [], now: NOW });
    expect(plan).toMatchObject({ raise: [], invalidWatchers: ['w1'] });
  });
});

describe('worst severity roll-up', () => {
  it('gives each device the worst (lowest) severity of its firing alarms, pending ones aside', () => {
    const worst = worstSeverityByDevice([
      { devicesn: 'a', severity: 3, state: 'firing' },
      { devicesn: 'a', severity: 1, state: 'firing' },
      { devicesn: 'a', severity: 4, state: 'firing' },
      { devicesn: 'b', severity: 4, state: 'firing' },
      { devicesn: 'b', severity: 1, state: 'pending' },
      { devicesn: 'c', severity: 2, state: 'pending' },
    ]);
    expect(Object.fromEntries(worst)).toEqual({ a: 1, b: 4 });
  });

  it('repairs room statuses after a restart from firing alarms only (a pending alarm leaves its room OK)', () => {
    const devices = [device('a', false, 'Room 1', 2), device('b', false, 'Room 2')];
    const open = [
      { devicesn: 'a', severity: 2 as const, state: 'pending' as const },
      { devicesn: 'b', severity: 1 as const, state: 'pending' as const },
    ];
    const rooms = [roomAggregate({ room: 'Room 1', roomStatus: 'Major' }), roomAggregate({ room: 'Room 2', roomStatus: 'OK' })];
    const plan = planRepair({ devices, open, rooms });
    expect(plan.severities).toEqual([{ device: devices[0], severity: undefined }]);
    expect(plan.rooms.map((r) => r.room)).toEqual(['Room 1']);
  });

  it('sets each device severity to its worst alarm, and removes it where no alarm is open', () => {
    const devices = [device('a', false), device('b', true, 'Room 1', 3)];
    const plan = planAlarms({ watchers: [watcher('w1', { severity: 3 }), watcher('w2', { severity: 1 })], devices, open: [], now: NOW });
    expect(plan.severities.map((s) => [s.device.devicesn, s.severity])).toEqual([
      ['a', 1],
      ['b', undefined],
    ]);
  });

  it('names the rooms whose stored status is not the worst severity of their devices', () => {
    const room = (name: string, roomStatus: RoomAggregate['roomStatus']): RoomAggregate => ({
      region: 'EMEA',
      location: 'London',
      room: name,
      deviceCount: 1,
      online: 1,
      offline: 0,
      roomStatus,
    });
    const devices = [device('a', false, 'R1'), device('b', false, 'R2'), device('c', true, 'R3')];
    const worst = new Map<string, Severity>([
      ['a', 2],
      ['b', 4],
    ]);
    const stale = roomsToRecompute([room('R1', 'Major'), room('R2', 'OK'), room('R3', 'Minor')], devices, worst);
    expect(stale.map((r) => r.room)).toEqual(['R2', 'R3']);
  });
});

describe('transition notices', () => {
  const alarm: OpenAlarm = {
    state: 'firing',
    watcherId: 'w1',
    devicesn: 'a',
    deviceid: 'id-a',
    severity: 1,
    region: 'EMEA',
    location: 'London',
    room: 'Room 1',
    raisedAt: NOW,
    description: 'offline',
    notify: { sendEmail: true, emails: ['ops@example.com'] },
  };

  it('has an id fixed by the pair, the raise time and the transition; the run fixes its digest', () => {
    expect(noticeFor('raised', alarm, alarm.notify, NOW, 'offline')).toMatchObject({ id: `w1:a:${NOW}:raised`, type: 'alarms.raised', at: NOW });
    expect(noticeFor('cleared', alarm, alarm.notify, LATER, 'offline', 'resolved')).toMatchObject({ id: `w1:a:${NOW}:cleared`, type: 'alarms.cleared', at: LATER });
  });

  it('carries the alarm (with clearedAt once cleared), the watcher and its audience', () => {
    const notice = noticeFor('cleared', alarm, { ...alarm.notify, channelIds: ['c1'] }, LATER, 'offline', 'resolved');
    expect(notice?.alarm).toEqual({ id: 'w1:a', devicesn: 'a', deviceid: 'id-a', severity: 1, region: 'EMEA', location: 'London', room: 'Room 1', raisedAt: NOW, clearedAt: LATER, reason: 'resolved' });
    expect(notice?.watcher).toEqual({ id: 'w1', description: 'offline', severity: 1, type: 'offline' });
    expect(notice?.audience).toEqual({ sendEmail: true, emails: ['ops@example.com'], channelIds: ['c1'] });
  });

  it('is not written when the watcher tells nobody: no mail and no channel', () => {
    expect(noticeFor('raised', alarm, { sendEmail: false, emails: ['ops@example.com'] }, NOW, 'offline')).toBeUndefined();
    expect(noticeFor('raised', alarm, { sendEmail: true, emails: [] }, NOW, 'offline')).toBeUndefined();
    expect(noticeFor('raised', alarm, { sendEmail: false, emails: [], channelIds: ['c1'] }, NOW, 'offline')).toBeDefined();
  });
});

describe('evaluator pace', () => {
  const record = { id: 2, intervalDeviceWatchers: 120, intervalDeviceWatchersTimeout: 40 } as Parameters<typeof evaluatorSettings>[0][number];

  it('comes from the interval settings with the lowest id, defaults without any', () => {
    expect(evaluatorSettings([record, { ...record, id: 1, intervalDeviceWatchers: 30 }])).toEqual({ intervalSeconds: 30, timeoutSeconds: 40 });
    expect(evaluatorSettings([])).toEqual({ intervalSeconds: 60, timeoutSeconds: 50 });
  });

  it('is due half a tick early, so a schedule firing slightly early does not skip a tick', () => {
    expect(dueAt(100_000, { intervalSeconds: 60, timeoutSeconds: 50 }, 60)).toBe(70_000);
  });
});

describe('planAlarms: flapping (docs/guide/rules/alarms.md "A flapping device keeps one alarm open")', () => {
  const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();
  /** A firing alarm of w1 on `a` raised at 4 minutes, after a raise at 0 and a clear at 2. */
  const flapped = (extra: Partial<OpenAlarm> = {}): OpenAlarm => ({
    state: 'firing', watcherId: 'w1', devicesn: 'a', deviceid: 'id-a', severity: 2, region: 'EMEA', location: 'London', room: 'Room 1',
    raisedAt: at(4), notify: { sendEmail: true, emails: ['ops@example.com'] }, flips: [at(0), at(2), at(4)], ...extra,
  });
  const back = [device('a', true)];

  it('holds open, once, the alarm whose clear would be the fourth change within the window; idempotent', () => {
    const plan = planAlarms({ watchers: [watcher('w1')], devices: back, open: [flapped()], now: at(6) });
    expect(plan.clear).toEqual([]);
    expect(plan.flap.map((f) => f.alarm)).toEqual([expect.objectContaining({ flappingSince: at(6), quietSince: at(6), flips: [at(0), at(2), at(4), at(6)] })]);
    expect(plan.wake).toEqual([expect.objectContaining({ watcherId: 'w1', at: Date.parse(at(16)) })]);
    const again = planAlarms({ watchers: [watcher('w1')], devices: back, open: [plan.flap[0]!.alarm], now: at(6) });
    expect(again).toMatchObject({ flap: [], clear: [], update: [], wake: [] });
  });

  it('clears as before when flapping is off, or the changes fall outside the window', () => {
    expect(planAlarms({ watchers: [watcher('w1', { flapping: false })], devices: back, open: [flapped()], now: at(6) }).clear).toHaveLength(1);
    expect(planAlarms({ watchers: [watcher('w1', { flapping: { transitions: 4, windowMinutes: 5, quietMinutes: 10 } })], devices: back, open: [flapped()], now: at(6) }).clear).toHaveLength(1);
  });

  it('clears a flapping alarm only after quietMinutes without a failure; a failure ends the quiet', () => {
    const flapping = flapped({ flappingSince: at(6), quietSince: at(6) });
    expect(planAlarms({ watchers: [watcher('w1')], devices: back, open: [flapping], now: at(15) }).clear).toEqual([]);
    expect(planAlarms({ watchers: [watcher('w1')], devices: back, open: [flapping], now: at(16) }).clear).toHaveLength(1);
    const failing = planAlarms({ watchers: [watcher('w1')], devices: [device('a', false)], open: [flapping], now: at(7) });
    expect(failing.update).toEqual([expect.not.objectContaining({ quietSince: expect.anything() })]);
    expect(failing.update).toHaveLength(1);
  });
});
