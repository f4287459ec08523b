import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '#lib/devices/repository/devices';
import type { NamedProvider } from '#lib/inventory/provider/index';
import { providersReport } from '#lib/inventory/providerReport';
import { syncProviders } from '#lib/inventory/providers';
import { refreshDevice } from '#lib/inventory/refresh';
import type { StoredDevice } from '#lib/devices/types';
import { splitFleet, zoomRegionMap } from '../../scripts/local/fakes/fleet';
import type { WebexFake } from '../../scripts/local/fakes/webex';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { fleetOf, webexAdapter, webexFake, zoomAdapter, zoomFake } from '../support/vendors';

// Hostile vendor records through the fakes' control path (POST /_fake/devices/<serial>), the real
// adapters and one sync of both providers: every record within its bounds, the rest syncing.
const fleet = fleetOf(43, 80, 20);
const split = splitFleet(fleet);
let webex: WebexFake;
let zoom: ZoomFake;
let providers: NamedProvider[];

beforeAll(async () => {
  webex = await webexFake(() => split.webex);
  zoom = await zoomFake(() => split.zoom);
  providers = [
    { name: 'webex', provider: webexAdapter(webex.url, { pageSize: 25 }) },
    { name: 'zoom', provider: zoomAdapter(zoom.url, { regions: new Map(Object.entries(zoomRegionMap(fleet))) }) },
  ];
});
afterAll(async () => {
  await Promise.all([webex.close(), zoom.close()]);
});

/** Sets fields of one device in a fake, the way a person does against npm start. */
const setDevice = async (fake: { url: string }, serial: string, fields: Record<string, unknown>) => {
  const answer = await fetch(`${fake.url}/_fake/devices/${encodeURIComponent(serial)}`, { method: 'POST', body: JSON.stringify(fields) });
  expect(answer.status, await answer.clone().text()).toBe(200);
};
const stored = async () => new Map((await devices.index()).map((d) => [d.devicesn, d]));
const reportOf = async (name: string) => (await providersReport()).providers.find((p) => p.name === name)!;
const [big, renamed, hidden, longId] = [split.webex[0]!, split.zoom[0]!, split.webex[5]!, split.webex[9]!];
const longSerial = 'S'.repeat(300);

describe('vendor records out of bounds', () => {
  it('syncs the whole fleet first', async () => {
    const result = await syncProviders(providers);
    expect(result?.providers.map((p) => [p.name, p.ok])).toEqual([
      ['webex', true],
      ['zoom', true],
    ]);
    expect((await stored()).size).toBe(fleet.length);
  });

  it('a 450 KB software on one Webex device is cut; every other device of both providers keeps syncing', async () => {
    await setDevice(webex, big.devicesn, { software: 'R'.repeat(450 * 1024), product: 'M'.repeat(10 * 1024) });
    // meanwhile a Zoom device goes offline and a Webex one too: both changes must land in this sync
    const zoomChange = split.zoom.find((d) => d.status.connected && d.details.room !== renamed.details.room)!;
    const webexChange = split.webex.find((d) => d.status.connected && d.devicesn !== big.devicesn)!;
    await setDevice(zoom, zoomChange.devicesn, { connected: false });
    await setDevice(webex, webexChange.devicesn, { connected: false });
    const result = await syncProviders(providers);
    expect(result?.providers.map((p) => [p.name, p.ok, p.error])).toEqual([
      ['webex', true, undefined],
      ['zoom', true, undefined],
    ]);
    const all = await stored();
    expect(all.size).toBe(fleet.length);
    const cut = all.get(big.devicesn)!;
    expect(cut.vendorDetails?.software).toHaveLength(256);
    expect(cut.vendorDetails?.software?.endsWith('…')).toBe(true);
    expect(cut.devicemodel).toHaveLength(256);
    expect(all.get(zoomChange.devicesn)?.status.connected).toBe(false);
    expect(all.get(webexChange.devicesn)?.status.connected).toBe(false);
    expect((await reportOf('webex')).adjusted).toEqual({ 'truncated:vendorDetails.software': 1, 'truncated:devicemodel': 1 });
    expect((await reportOf('zoom')).adjusted).toEqual({});
  });

  it('a location named all becomes "all (zoom)"; invisible characters leave a Webex room name; both counted', async () => {
    const room = hidden.details.room;
    await setDevice(zoom, renamed.devicesn, { location: 'all' });
    await setDevice(webex, hidden.devicesn, { room: `\u202e${room}\u200b` });
    await syncProviders(providers);
    const all = await stored();
    expect(all.get(renamed.devicesn)?.details.location).toBe('all (zoom)');
    // the same room as its neighbours, not a look-alike second one
    expect(all.get(hidden.devicesn)?.details).toEqual(hidden.details);
    expect([...all.values()].some((d: StoredDevice) => d.details.location === 'all' || d.details.region === 'all')).toBe(false);
    expect((await reportOf('zoom')).adjusted).toEqual({ 'renamed:details.location': 1 });
    expect((await reportOf('webex')).adjusted).toMatchObject({ 'stripped:details.room': 1 });
  });

  it('a key field out of bounds skips that record only, counted by reason, its stored device held', async () => {
    const before = (await stored()).get(longId.devicesn)!;
    await setDevice(webex, longId.devicesn, { id: 'i'.repeat(600), connectionStatus: before.status.connected ? 'disconnected' : 'connected' });
    const other = split.webex.find((d) => ![big, hidden, longId].includes(d))!;
    await setDevice(webex, other.devicesn, { serial: longSerial });
    const result = await syncProviders(providers);
    expect(result?.providers.find((p) => p.name === 'webex')?.ok).toBe(true);
    // and in the run's figures (DevicesSkippedInvalid)
    expect(result?.skipped).toBe(2);
    const all = await stored();
    // held as it was, neither updated nor removed
    expect(all.get(longId.devicesn)).toEqual(before);
    expect(all.has(longSerial)).toBe(false);
    const report = await reportOf('webex');
    expect(report.skipped).toMatchObject({ 'tooLong:deviceid': 1, 'tooLong:devicesn': 1, personal: 2, noSerial: 1 });
    expect(report.devices).toBe(split.webex.length - 2);
  });

  it('a refresh stores the device within the same bounds', async () => {
    const answer = await refreshDevice(providers[0]!.provider, big.devicesn);
    expect(answer.vendorDetails?.software).toHaveLength(256);
    expect((await devices.get(big.devicesn)).devicemodel).toHaveLength(256);
  });
});

