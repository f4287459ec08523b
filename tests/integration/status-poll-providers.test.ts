import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMeter } from '#lib/inventory/provider/index';
import { simulatedProvider } from '#lib/inventory/provider/simulated';
import { NOT_CONNECTED } from '#lib/inventory/provider/webex';
import type { ProviderDevice, StoredDevice } from '#lib/devices/types';
import type { WebexFake } from '../../scripts/local/fakes/webex';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { fleetOf, resetFaults, webexAdapter, webexFake, zoomAdapter, zoomFake } from '../support/vendors';

// Status polls of the vendor adapters against the local fakes: only what is not connected is read,
// by the vendors' own filters (Webex connectionStatus, Zoom rooms status), paged as their lists are.

const offlineSerials = (fleet: readonly ProviderDevice[]) => fleet.filter((d) => !d.status.connected).map((d) => d.devicesn).sort();

/** `POST /_fake/devices/<serial>` of a fake: the control path that switches one device. */
const switchDevice = async (url: string, serial: string, connected: boolean) => {
  const answer = await fetch(`${url}/_fake/devices/${encodeURIComponent(serial)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connected }) });
  expect(answer.status).toBe(200);
};
const unswitch = (url: string, serial: string) => fetch(`${url}/_fake/devices/${encodeURIComponent(serial)}`, { method: 'DELETE' });

describe('Webex status poll (connectionStatus filters)', () => {
  const fleet = fleetOf(38, 60, 20);
  let fake: WebexFake;
  beforeAll(async () => {
    fake = await webexFake(() => fleet);
  });
  afterAll(() => fake.close());

  it('reads exactly the devices not connected, one filtered listing per not-connected status, paged by Link', async () => {
    resetFaults(fake);
    const meter = newMeter();
    const before = fake.stats.requests;
    // pages of 2: several of the filtered listings take more than one page
    const reading = await webexAdapter(fake.url, { pageSize: 2 }).pollStatus!([], meter);
    expect([...reading.notConnected].sort()).toEqual(offlineSerials(fleet));
    expect(reading.unread ?? new Set()).toEqual(new Set());
    const pages = fake.stats.requests - before;
    // far fewer requests than a listing of the fleet by pages of 2 (30 for the devices alone)
    const offline = offlineSerials(fleet).length;
    expect(pages).toBeLessThanOrEqual(NOT_CONNECTED.length + Math.ceil(offline / 2) + 1);
    expect(pages).toBeLessThan(30);
    expect(meter.requests).toBeGreaterThanOrEqual(NOT_CONNECTED.length);
  });

  it('lists the devices alone, unfiltered, when the fleet we hold takes fewer pages than the filtered listings', async () => {
    resetFaults(fake);
    const serial = fleet.find((d) => d.status.connected)!.devicesn;
    await switchDevice(fake.url, serial, false);
    try {
      // 60 devices by pages of 25: 3 pages, fewer than one listing per not-connected status
      const meter = newMeter();
      const before = fake.stats.requests;
      const reading = await webexAdapter(fake.url, { pageSize: 25 }).pollStatus!([], meter, { fleet: fleet.length });
      expect([...reading.notConnected].sort()).toEqual([...offlineSerials(fleet), serial].sort());
      expect(fake.stats.requests - before).toBe(3);
      // the meter counts the token request too
      expect(meter.requests).toBeLessThan(NOT_CONNECTED.length);
      // by pages of 10 the fleet is 6 pages: the filtered listings again (one each, the offline devices being few)
      const filtered = newMeter();
      const again = await webexAdapter(fake.url, { pageSize: 10 }).pollStatus!([], filtered, { fleet: fleet.length });
      expect([...again.notConnected].sort()).toEqual([...offlineSerials(fleet), serial].sort());
      expect(filtered.requests).toBeGreaterThanOrEqual(NOT_CONNECTED.length);
    } finally {
      await unswitch(fake.url, serial);
    }
  });

  it('sees a device switched off through the fake, and back on', async () => {
    resetFaults(fake);
    const serial = fleet.find((d) => d.status.connected)!.devicesn;
    const adapter = webexAdapter(fake.url);
    await switchDevice(fake.url, serial, false);
    try {
      expect((await adapter.pollStatus!([])).notConnected.has(serial)).toBe(true);
    } finally {
      await unswitch(fake.url, serial);
    }
    expect((await adapter.pollStatus!([])).notConnected.has(serial)).toBe(false);
  });

  it('never counts a connected device as not connected, whatever a page holds', async () => {
    resetFaults(fake);
    const serial = fleet.find((d) => d.status.connected)!.devicesn;
    // a record whose own status says connected, answered to a not-connected filter: the record is believed
    await switchDevice(fake.url, serial, false);
    await fetch(`${fake.url}/_fake/devices/${serial}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ connectionStatus: 'connected' }) });
    try {
      const reading = await webexAdapter(fake.url).pollStatus!([]);
      expect(reading.notConnected.has(serial)).toBe(false);
    } finally {
      await unswitch(fake.url, serial);
    }
  });
});

describe('Zoom status poll (rooms status filter)', () => {
  // one device a room: a room is Offline exactly when its device is
  const fleet = fleetOf(39, 70, 70);
  let fake: ZoomFake;
  beforeAll(async () => {
    fake = await zoomFake(() => fleet, { extras: false });
  });
  afterAll(() => fake.close());

  /** The room handles the sync stores (`vendorRef`), by serial number. */
  const refs = async (): Promise<Map<string, string>> => new Map((await zoomAdapter(fake.url).listDevices()).map((d) => [d.devicesn, d.vendorRef!]));
  const roomOf = async (serial: string): Promise<string> => (await refs()).get(serial)!;
  const held = (device: ProviderDevice, vendorRef: string): StoredDevice => ({ ...device, status: { connected: false, inCallStatus: 'NONE' }, vendor: 'zoom', vendorRef });

  it('reads the Offline rooms across next_page_token pages, and the devices of those rooms only', async () => {
    resetFaults(fake, { retryAfterSeconds: null });
    const meter = newMeter();
    const before = fake.stats.requests;
    const reading = await zoomAdapter(fake.url, { pageSize: 30 }).pollStatus!([], meter);
    expect([...reading.notConnected].sort()).toEqual(offlineSerials(fleet));
    const offlineRooms = offlineSerials(fleet).length;
    // the room listing (token, pages) and one devices request per Offline room: not the 70 rooms
    expect(fake.stats.requests - before).toBeLessThanOrEqual(Math.ceil(offlineRooms / 30) + offlineRooms + 1);
    expect(fake.stats.requests - before).toBeLessThan(fleet.length);
  });

  it('does not read a room Offline again where it already holds the devices not connected', async () => {
    resetFaults(fake, { retryAfterSeconds: null });
    const offline = fleet.filter((d) => !d.status.connected);
    const handles = await refs();
    const heldAll = offline.map((d) => held(d, handles.get(d.devicesn)!));
    const before = fake.stats.requests;
    const reading = await zoomAdapter(fake.url, { pageSize: 300 }).pollStatus!(heldAll);
    expect([...reading.notConnected].sort()).toEqual(offlineSerials(fleet));
    // the listing's one page, nothing else (the new adapter's token request is not counted among the requests)
    expect(fake.stats.requests - before).toBeLessThanOrEqual(1);
  });

  it('sees a device switched off through the fake, and reads the room of one held off that came back', async () => {
    resetFaults(fake, { retryAfterSeconds: null });
    const device = fleet.find((d) => d.status.connected)!;
    const ref = await roomOf(device.devicesn);
    const adapter = zoomAdapter(fake.url);
    await switchDevice(fake.url, device.devicesn, false);
    try {
      expect((await adapter.pollStatus!([])).notConnected.has(device.devicesn)).toBe(true);
    } finally {
      await unswitch(fake.url, device.devicesn);
    }
    // held not connected (a cleared event dropped), its room no longer Offline: read, and connected
    const reading = await adapter.pollStatus!([held(device, ref)]);
    expect(reading.notConnected.has(device.devicesn)).toBe(false);
    expect(reading.unread?.has(device.devicesn) ?? false).toBe(false);
  });

  it('does not read, every poll, the room of a device whose own record said Offline while its room is up', async () => {
    resetFaults(fake, { retryAfterSeconds: null });
    const device = fleet.find((d) => d.status.connected)!;
    const heldOwn: StoredDevice = { ...held(device, await roomOf(device.devicesn)), vendorDetails: { connectionDetail: 'Offline' } };
    const adapter = zoomAdapter(fake.url, { pageSize: 300 });
    await adapter.pollStatus!([]);
    const before = fake.stats.requests;
    const offlineRooms = offlineSerials(fleet).length;
    const reading = await adapter.pollStatus!([heldOwn]);
    // the listing and the Offline rooms only: its room is not read, and it stays as held
    expect(fake.stats.requests - before).toBe(1 + offlineRooms);
    expect(reading.unread?.has(device.devicesn)).toBe(true);
  });

  it('leaves unread a held device the poll cannot place (no room handle)', async () => {
    const device = fleet.find((d) => !d.status.connected)!;
    const reading = await zoomAdapter(fake.url).pollStatus!([{ ...held(device, ''), vendorRef: undefined }]);
    expect(reading.unread?.has(device.devicesn)).toBe(true);
  });
});

describe('Zoom status poll, two devices a room', () => {
  const fleet = fleetOf(40, 20, 10).map((d) => ({ ...d, status: { connected: true, inCallStatus: 'NONE' } }));
  let fake: ZoomFake;
  beforeAll(async () => {
    fake = await zoomFake(() => fleet, { extras: false });
  });
  afterAll(() => fake.close());

  it('reads the room of a device held not connected whose room is up: still off there, it stays not connected', async () => {
    const listed = await zoomAdapter(fake.url).listDevices();
    const roomOfFirst = listed[0]!.vendorRef!.split('/')[0];
    const mates = listed.filter((d) => d.vendorRef!.split('/')[0] === roomOfFirst);
    expect(mates.length).toBeGreaterThan(1);
    const down = mates[0]!;
    await switchDevice(fake.url, down.devicesn, false);
    try {
      const heldDown: StoredDevice = { ...down, status: { connected: false, inCallStatus: 'NONE' } };
      const reading = await zoomAdapter(fake.url).pollStatus!([heldDown]);
      // the room is not Offline (its other device is up), yet the device is off: read, not guessed
      expect(reading.notConnected.has(down.devicesn)).toBe(true);
      expect(reading.notConnected.has(mates[1]!.devicesn)).toBe(false);
    } finally {
      await unswitch(fake.url, down.devicesn);
    }
  });
});

describe('simulated status poll', () => {
  it('answers the devices not connected at that instant, as its listing would', async () => {
    let now = 0;
    const provider = simulatedProvider({ seed: 7, devices: 40, churn: 5, tickSeconds: 60, now: () => now });
    for (const at of [0, 60_000, 120_000]) {
      now = at;
      const listed = await provider.listDevices();
      expect([...(await provider.pollStatus!([])).notConnected].sort()).toEqual(offlineSerials(listed));
    }
  });
});
