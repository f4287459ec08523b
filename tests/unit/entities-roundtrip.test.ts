import { describe, expect, it } from 'vitest';
import { MaintenanceWindowEntity } from '#lib/maintenance/entities';
import type { MaintenanceWindow } from '#lib/maintenance/types';
import { ReportScheduleEntity } from '#lib/reports/entities';
import type { ReportSchedule } from '#lib/reports/types';
import { WatcherEntity, watcherFields } from '#lib/watchers/entities';
import type { WatcherRecord } from '#lib/watchers/types';

/*
 * Entities whose writer stores the record's fields as they are (a spread, or watcherFields) while
 * `fromItem` names each field it reads back: a record with every field of its type filled comes
 * back equal. The samples are typed `Complete<T>`, so a field added to a type fails the type check
 * here until its sample fills it, and then this test names a `fromItem` that does not read it.
 */
type Complete<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
/** An item as the store answers it: keys, type, fields, no undefined values. */
const stored = (item: Record<string, unknown>): Record<string, unknown> => JSON.parse(JSON.stringify(item)) as Record<string, unknown>;

const watcher: Complete<WatcherRecord> = {
  id: 'w-1',
  scope: [{ region: 'EMEA', location: 'Madrid' }],
  user: 'ana',
  dashboard: 'main',
  service: 'video',
  type: 'connectivity',
  devicesId: ['SN-1'],
  allDevices: false,
  severity: 2,
  operations: { type: 'rule', operatorType: 'AND', conditions: [{ element: 'status.connected', operator: '==', value: 'false' }] },
  description: 'offline rooms',
  sendEmail: true,
  emails: ['ops@example.com'],
  pendingSeconds: 60,
  channelIds: ['c-1'],
  repeatIntervalSeconds: 3600,
  inhibitedBy: { condition: 'roomOffline' },
  escalation: [{ afterMinutes: 15, channelIds: ['c-2'], emails: ['lead@example.com'] }],
  flapping: { transitions: 6, windowMinutes: 20, quietMinutes: 5 },
  active: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
};

const schedule: Complete<ReportSchedule> = {
  id: 'r-1',
  name: 'weekly EMEA',
  period: 'weekly',
  weekday: 'MO',
  time: '08:00',
  timeZone: 'Europe/Madrid',
  channelIds: ['c-1'],
  scope: [{ region: 'EMEA' }],
  active: false,
  createdBy: 'ana',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
};

const window: Complete<MaintenanceWindow> = {
  id: 'm-1',
  matchers: { region: 'EMEA', location: 'Madrid', room: 'Sala 1' },
  schedule: { days: ['MO'], start: '22:00', durationMinutes: 60, timeZone: 'Europe/Madrid' },
  startsAt: '2026-11-01T00:00:00.000Z',
  endsAt: '2026-12-01T00:00:00.000Z',
  comment: 'firmware',
  createdBy: 'ana',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
};

describe('an entity reads back every field its writer stores', () => {
  it('Watcher (watcherFields)', () => {
    expect(WatcherEntity.fromItem(stored(WatcherEntity.item(watcher.id, watcherFields(watcher, 3))))).toEqual(watcher);
  });

  it('ReportSchedule (the schedule spread, with its version)', () => {
    expect(ReportScheduleEntity.fromItem(stored(ReportScheduleEntity.item(schedule.id, { ...schedule, version: 3 })))).toEqual(schedule);
  });

  it('MaintenanceWindow (the window spread, with its version and life)', () => {
    expect(MaintenanceWindowEntity.fromItem(stored(MaintenanceWindowEntity.item(window.id, { ...window, version: 3, until: 1 })))).toEqual(window);
  });
});
