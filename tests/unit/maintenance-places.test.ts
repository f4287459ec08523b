import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow, WindowMatchers } from '#lib/maintenance/types';
import { deviceMaintenance, roomMaintenance } from '#lib/maintenance/pure/places';
import type { OpenWindow } from '#lib/maintenance/pure/windows';

// Devices and rooms in maintenance (issue 28 item 1; docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end"): which open windows hold them.
const opening = { start: Date.parse('2026-12-01T21:00:00Z'), end: Date.parse('2026-12-02T01:00:00Z') };
const open = (id: string, matchers: WindowMatchers): OpenWindow => ({
  window: {
    id,
    matchers,
    schedule: { days: ['TU'], start: '22:00', durationMinutes: 240, timeZone: 'Europe/Berlin' },
    comment: `window ${id}`,
    createdBy: 'api-key',
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  } satisfies MaintenanceWindow,
  opening,
});
const place = { region: 'EMEA', location: 'Berlin', room: 'Board Room' };
const device = { devicesn: 'SN1', vendor: 'zoom', details: place };

describe('deviceMaintenance', () => {
  it('marks a device every open window holds by place, serial number or vendor, the windows by id with their closing', () => {
    const windows = [open('b', { region: 'EMEA' }), open('a', { devicesn: 'SN1' }), open('c', { vendor: 'zoom', location: 'Berlin' })];
    expect(deviceMaintenance(windows, device)).toEqual({
      inMaintenance: true,
      maintenance: ['a', 'b', 'c'].map((id) => ({ id, comment: `window ${id}`, closesAt: '2026-12-02T01:00:00.000Z' })),
    });
  });

  it('adds nothing when no window holds the device: other places, devices, vendors, and windows naming a watcher', () => {
    const windows = [open('a', { region: 'AMER' }), open('b', { devicesn: 'SN2' }), open('c', { vendor: 'webex' }), open('d', { watcherId: 'w1' }), open('e', { watcherId: 'w1', region: 'EMEA' })];
    expect(deviceMaintenance(windows, device)).toEqual({});
    expect(deviceMaintenance([], device)).toEqual({});
  });
});

describe('roomMaintenance', () => {
  it('marks a room only under windows naming places alone', () => {
    const windows = [open('a', { region: 'EMEA', room: 'Board Room' }), open('b', { devicesn: 'SN1' }), open('c', { vendor: 'zoom' }), open('d', { watcherId: 'w', room: 'Board Room' })];
    expect(roomMaintenance(windows, place)).toEqual({ inMaintenance: true, maintenance: [{ id: 'a', comment: 'window a', closesAt: '2026-12-02T01:00:00.000Z' }] });
    expect(roomMaintenance(windows, { ...place, room: 'Lobby' })).toEqual({});
  });
});
