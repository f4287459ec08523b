import { describe, expect, it } from 'vitest';
import { compareStatus, toLookUp } from '#lib/inventory/pure/statusPoll';
import { NOT_CONNECTED, unfilteredIsCheaper } from '#lib/inventory/provider/webex';
import type { StoredDevice } from '#lib/devices/types';

// A status poll's comparison: the vendor's not-connected answer against what we hold.

const stored = (devicesn: string, connected: boolean, vendor: string | undefined = 'webex'): StoredDevice => ({
  deviceid: `id-${devicesn}`,
  devicesn,
  devicemodel: 'Room Kit',
  status: { connected, inCallStatus: 'NONE' },
  details: { region: 'EMEA', location: 'Madrid', room: 'R1' },
  ...(vendor ? { vendor } : {}),
});

const compare = (notConnected: string[], heldNotConnected: StoredDevice[], listed: StoredDevice[], unread: string[] = [], vendor = 'webex') =>
  compareStatus({ vendor, firstProvider: 'webex', reading: { notConnected: new Set(notConnected), unread: new Set(unread) }, heldNotConnected, listed });

describe('compareStatus', () => {
  it('a device held not connected and absent from the answer is connected again', () => {
    expect(compare([], [stored('A', false)], [])).toEqual([{ devicesn: 'A', connected: true }]);
  });

  it('a device held connected and in the answer is disconnected', () => {
    expect(compare(['B'], [], [stored('B', true)])).toEqual([{ devicesn: 'B', connected: false }]);
  });

  it('what agrees is not observed: held off and still off, held on and not listed', () => {
    expect(compare(['A'], [stored('A', false)], [stored('A', false)])).toEqual([]);
    expect(compare([], [], [])).toEqual([]);
  });

  it('a serial number the vendor lists that we do not hold changes nothing', () => {
    expect(compare(['ZZ'], [], [])).toEqual([]);
  });

  it('a device the poll could not read stays as held', () => {
    expect(compare([], [stored('A', false)], [], ['A'])).toEqual([]);
    expect(compare(['B'], [], [stored('B', true)], ['B'])).toEqual([]);
  });

  it("compares only the polled vendor's devices (a device stored before vendors were kept belongs to the first provider)", () => {
    expect(compare([], [stored('Z1', false, 'zoom')], [])).toEqual([]);
    expect(compare(['Z2'], [], [stored('Z2', true, 'zoom')])).toEqual([]);
    expect(compare([], [stored('OLD', false, undefined)], [])).toEqual([{ devicesn: 'OLD', connected: true }]);
    expect(compare([], [stored('OLD', false, undefined)], [], [], 'zoom')).toEqual([]);
  });

  it('answers each device once, in serial number order', () => {
    const changes = compare(['C', 'B'], [stored('D', false), stored('A', false)], [stored('C', true), stored('B', true)]);
    expect(changes).toEqual([
      { devicesn: 'A', connected: true },
      { devicesn: 'B', connected: false },
      { devicesn: 'C', connected: false },
      { devicesn: 'D', connected: true },
    ]);
  });
});

describe('toLookUp', () => {
  it('looks up only the not-connected serial numbers not already held so', () => {
    expect(toLookUp({ notConnected: new Set(['C', 'A', 'B']) }, [stored('A', false)])).toEqual(['B', 'C']);
  });
});

describe('the Webex status poll chooses its cheaper way by the fleet we hold', () => {
  it('lists unfiltered only while the fleet takes fewer pages than the five filtered listings', () => {
    expect(NOT_CONNECTED).toHaveLength(5);
    expect(unfilteredIsCheaper(undefined, 1000)).toBe(false); // never synced: the filters, whose cost does not grow
    expect(unfilteredIsCheaper(0, 1000)).toBe(false);
    expect(unfilteredIsCheaper(1, 1000)).toBe(true);
    expect(unfilteredIsCheaper(300, 1000)).toBe(true);
    expect(unfilteredIsCheaper(4000, 1000)).toBe(true); // 4 pages
    expect(unfilteredIsCheaper(4001, 1000)).toBe(false); // 5 pages: no cheaper
    expect(unfilteredIsCheaper(60, 10)).toBe(false);
  });
});
