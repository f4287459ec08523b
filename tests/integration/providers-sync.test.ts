import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '#lib/devices/repository/devices';
import * as providerStatuses from '#lib/inventory/repository/providers';
import * as rooms from '#lib/rollups/repository/rooms';
import { expectedAggregates } from '#lib/rollups/pure/aggregates';
import { roomKey } from '#lib/devices/types';
import type { NamedProvider } from '#lib/inventory/provider/index';
import { providersReport } from '#lib/inventory/providerReport';
import { syncProviders } from '#lib/inventory/providers';
import { ProviderEntity } from '#lib/inventory/entities';
import { batchGet } from '#lib/store/table';
import type { ProviderDevice, StoredDevice } from '#lib/devices/types';
import { splitFleet, zoomRegionMap } from '../../scripts/local/fakes/fleet';
import type { WebexFake } from '../../scripts/local/fakes/webex';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { fleetOf, resetFaults, webexAdapter, webexFake, zoomAdapter, zoomFake } from '../support/vendors';

// Webex and Zoom at once, through the real adapters and the fakes, into one table (one story: the
// tests run in order and each starts from what the one before left).
const fleet = fleetOf(41, 160, 40);
const split = splitFleet(fleet);
let webexDevices: readonly ProviderDevice[] = split.webex;
let zoomDevices: readonly ProviderDevice[] = split.zoom;
let webex: WebexFake;
let zoom: ZoomFake;
let providers: NamedProvider[];

beforeAll(async () => {
  webex = await webexFake(() => webexDevices);
  zoom = await zoomFake(() => zoomDevices);
  providers = [
    { name: 'webex', provider: webexAdapter(webex.url, { pageSize: 25 }) },
    { name: 'zoom', provider: zoomAdapter(zoom.url, { regions: new Map(Object.entries(zoomRegionMap(fleet))), pageSize: 30 }) },
  ];
});
afterAll(async () => {
  await Promise.all([webex.close(), zoom.close()]);
});

const stored = async () => new Map((await devices.index()).map((d) => [d.devicesn, d]));
const vendorOf = (all: Map<string, StoredDevice>, vendor: string) => [...all.values()].filter((d) => d.vendor === vendor);
const sync = () => syncProviders(providers);
const statusOf = async (name: string) => (await providerStatuses.all()).get(name)!;

describe('several providers at once', () => {
  it('stores both vendors\' devices with their vendor and facts, and one aggregate per room', async () => {
    const result = await sync();
    expect(result?.providers.map((p) => [p.name, p.ok, p.devices])).toEqual([
      ['webex', true, split.webex.length],
      ['zoom', true, split.zoom.length],
    ]);
    const all = await stored();
    expect(all.size).toBe(fleet.length);
    expect(vendorOf(all, 'webex')).toHaveLength(split.webex.length);
    expect(vendorOf(all, 'zoom')).toHaveLength(split.zoom.length);
    expect(vendorOf(all, 'webex').every((d) => d.vendorDetails?.software?.startsWith('RoomOS'))).toBe(true);
    expect(vendorOf(all, 'zoom').every((d) => d.vendorDetails?.connectionDetail === (d.status.connected ? 'Online' : 'Offline'))).toBe(true);
    const aggregates = await rooms.inPlace({});
    expect(new Map(aggregates.map((r) => [roomKey(r), r]))).toEqual(expectedAggregates([...all.values()]));
    const status = await statusOf('webex');
    expect(status).toMatchObject({ devices: split.webex.length, skipped: { personal: 2, noSerial: 1 }, duplicates: 0 });
    expect(status.requests).toBeGreaterThan(5);
    expect(status.lastSuccessAt).toBeDefined();
  });

  it('a 5xx in the middle of a listing changes none of that vendor\'s devices, and the other vendor syncs', async () => {
    const before = await stored();
    // Webex fails midway; Zoom reports a device gone offline
    resetFaults(webex, { failAfterRequests: 3 });
    const flipped = zoomDevices.find((d) => d.status.connected)!;
    zoomDevices = zoomDevices.map((d) => (d === flipped ? { ...d, status: { connected: false, inCallStatus: 'NONE' } } : d));
    zoom.setDevices(() => zoomDevices);
    const result = await sync();
    expect(result?.providers.find((p) => p.name === 'webex')).toMatchObject({ ok: false, devices: split.webex.length });
    const after = await stored();
    expect(vendorOf(after, 'webex')).toEqual(vendorOf(before, 'webex'));
    expect(after.get(flipped.devicesn)?.status.connected).toBe(false);
    const status = await statusOf('webex');
    expect(status.lastError?.message).toMatch(/answered 500/);
    expect(status.lastError?.trackingId).toMatch(/^FAKE_/);
    expect(status.failingSince).toBeDefined();
    expect(JSON.stringify(status)).not.toMatch(/fake-webex-secret|fake-webex-refresh|Bearer/);
    resetFaults(webex);
  });

  it('a vendor down keeps its devices in place; once back it is not failing any more', async () => {
    resetFaults(zoom, { down: 503, retryAfterSeconds: null });
    const before = await stored();
    await sync();
    expect(vendorOf(await stored(), 'zoom')).toEqual(vendorOf(before, 'zoom'));
    expect((await statusOf('zoom')).lastError?.message).toMatch(/503/);
    resetFaults(zoom, { retryAfterSeconds: null });
    await sync();
    const zoomStatus = await statusOf('zoom');
    expect(zoomStatus.failingSince).toBeUndefined();
    expect(zoomStatus.lastError).toBeDefined();
    expect((await statusOf('webex')).failingSince).toBeUndefined();
  });

  it('flags the devices of a provider failing past PROVIDER_STALE_MINUTES stale, and clears the flag when it recovers', async () => {
    process.env.PROVIDER_STALE_MINUTES = '0';
    try {
      resetFaults(zoom, { down: 500, retryAfterSeconds: null });
      await sync();
      const flagged = vendorOf(await stored(), 'zoom');
      expect(flagged.length).toBe(zoomDevices.length);
      expect(flagged.every((d) => d.staleSince !== undefined)).toBe(true);
      expect(vendorOf(await stored(), 'webex').every((d) => d.staleSince === undefined)).toBe(true);
      resetFaults(zoom, { retryAfterSeconds: null });
      await sync();
      expect(vendorOf(await stored(), 'zoom').every((d) => d.staleSince === undefined)).toBe(true);
    } finally {
      delete process.env.PROVIDER_STALE_MINUTES;
    }
  });

  it('holds the removals of a listing shrunk by half, then applies them on the third sync that sees it', async () => {
    const kept = webexDevices.filter((_, i) => i % 2 === 0);
    webexDevices = kept;
    webex.setDevices(() => webexDevices);
    for (const seen of [1, 2]) {
      const result = await sync();
      expect(result?.providers.find((p) => p.name === 'webex')?.heldRemovals).toBe(split.webex.length - kept.length);
      expect(vendorOf(await stored(), 'webex')).toHaveLength(split.webex.length);
      const held = (await statusOf('webex')).heldRemovals;
      expect(held).toMatchObject({ count: split.webex.length - kept.length, seen });
      // the listing hash keeps its stored attribute name `digest`: items written before the rename read the same
      const [item] = await batchGet([ProviderEntity.key('webex')]);
      expect(item?.heldRemovals).toEqual({ count: held?.count, seen, since: held?.since, digest: held?.listingHash });
    }
    await sync();
    expect(vendorOf(await stored(), 'webex').map((d) => d.devicesn).sort()).toEqual(kept.map((d) => d.devicesn).sort());
    expect((await statusOf('webex')).heldRemovals).toBeUndefined();
    const all = await stored();
    const aggregates = await rooms.inPlace({});
    expect(new Map(aggregates.map((r) => [roomKey(r), r]))).toEqual(expectedAggregates([...all.values()]));
  });

  it('a serial number both vendors list stays with the provider named first; the other counts a duplicate', async () => {
    const shared = webexDevices[0]!;
    zoomDevices = [...zoomDevices, { ...shared, deviceid: 'zoom-twin', details: zoomDevices[0]!.details }];
    zoom.setDevices(() => zoomDevices);
    await sync();
    expect((await stored()).get(shared.devicesn)?.vendor).toBe('webex');
    expect((await statusOf('zoom')).duplicates).toBe(1);
  });

  it('with no provider configured the sync stores nothing, and the report says so beside the stored statuses', async () => {
    const before = await stored();
    expect(await syncProviders([])).toBeUndefined();
    expect((await stored()).size).toBe(before.size);
    const report = await providersReport();
    expect(report.configured).toEqual([]);
    expect(report.message).toMatch(/No device provider is configured/);
    expect(report.providers.map((p) => [p.name, p.configured])).toEqual([
      ['webex', false],
      ['zoom', false],
    ]);
  });

  it('reports a provider failing past PROVIDER_STALE_MINUTES as stale, with since when', async () => {
    process.env.DEVICE_PROVIDERS = 'webex,zoom';
    resetFaults(zoom, { down: 500, retryAfterSeconds: null });
    try {
      await sync();
      const failingSince = (await statusOf('zoom')).failingSince!;
      const report = await providersReport(Date.parse(failingSince) + 31 * 60_000);
      const entry = report.providers.find((p) => p.name === 'zoom')!;
      expect(entry).toMatchObject({ configured: true, stale: true, failingSince });
      expect(entry.staleSince).toBe(new Date(Date.parse(failingSince) + 30 * 60_000).toISOString());
      expect((await providersReport(Date.parse(failingSince) + 60_000)).providers.find((p) => p.name === 'zoom')!.stale).toBe(false);
    } finally {
      delete process.env.DEVICE_PROVIDERS;
      resetFaults(zoom, { retryAfterSeconds: null });
    }
  });
});
