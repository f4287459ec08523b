import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFleet } from '#lib/inventory/provider/simulated';
import { api } from '../support/api';
import { unique } from '../support/fleet';
import { adminToken as signInAdmin, createRole, userWith } from '../support/principals';

/*
 * The reads a scope did not narrow (docs/guide/rules/access.md "Filter configurations and a device's filter are narrowed to the scope"), over HTTP in ACCESS_MODE=key (a bearer token
 * narrows to its principal): filter configurations and a device's filter are fleet data, narrowed;
 * filters (id, name) and providers are dashboard and operations data, alike to every caller.
 */
const fleet = simulatedFleet({ seed: 42, devices: 240 });
const inside = fleet.find((d) => d.details.region === 'EMEA')!;
const outside = fleet.find((d) => d.details.region === 'APAC')!;
const base = 900_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
const ids = { emea: base + 1, apac: base + 2, filterIn: base + 3, filterOut: base + 4, filterNoDevice: base + 5, filterUnknownDevice: base + 6 };
type ListForm = { id: number; region: string; locations: { locationName: string }[] };

let viewer = '';
let londonViewer = '';

beforeAll(async () => {
  const admin = await signInAdmin();
  const role = await createRole(admin, ['fleet:read']);
  viewer = (await userWith(admin, role, [{ region: 'EMEA' }])).token;
  londonViewer = (await userWith(admin, role, [{ region: 'EMEA', location: inside.details.location }])).token;
  const configs = [
    { id: ids.emea, region: 'EMEA', locations: [{ locationName: inside.details.location }, { locationName: unique('elsewhere') }] },
    { id: ids.apac, region: 'APAC', locations: [{ locationName: outside.details.location }] },
  ];
  expect((await api('POST', '/filtersConfig', { body: configs })).status).toBe(200);
  expect((await api('POST', `/filters/${ids.filterIn}`, { body: { name: 'in', description: 'scoped read', deviceSN: inside.devicesn } })).status).toBe(200);
  expect((await api('POST', `/filters/${ids.filterOut}`, { body: { name: 'out', description: 'scoped read', deviceSN: outside.devicesn } })).status).toBe(200);
  expect((await api('POST', `/filters/${ids.filterNoDevice}`, { body: { name: 'no device', description: 'scoped read' } })).status).toBe(200);
  expect((await api('POST', `/filters/${ids.filterUnknownDevice}`, { body: { name: 'unknown device', description: 'scoped read', deviceSN: unique('no-such-device') } })).status).toBe(200);
});
afterAll(async () => {
  for (const id of [ids.emea, ids.apac]) await api('DELETE', `/filtersConfig/${id}`);
  for (const id of [ids.filterIn, ids.filterOut, ids.filterNoDevice, ids.filterUnknownDevice]) await api('DELETE', `/filters/${id}`);
});

describe('filter configurations are fleet data: narrowed to the scope', () => {
  it("lists and reads only its region's configurations; another region's is 404 as an unknown one", async () => {
    const list = await api<ListForm[]>('GET', '/filtersConfig', { token: viewer });
    expect(list.status).toBe(200);
    expect(list.body.map((c) => c.id)).toContain(ids.emea);
    expect(list.body.map((c) => c.id)).not.toContain(ids.apac);
    expect(list.body.every((c) => c.region === 'EMEA')).toBe(true);
    expect((await api('GET', `/filtersConfig/${ids.emea}`, { token: viewer })).status).toBe(200);
    const hidden = await api('GET', `/filtersConfig/${ids.apac}`, { token: viewer });
    const unknown = await api('GET', `/filtersConfig/${base + 9}`, { token: viewer });
    expect([hidden.status, hidden.body]).toEqual([unknown.status, unknown.body]);
    expect(hidden.status).toBe(404);
  });

  it('counts only the configurations the scoped caller may list', async () => {
    const listed = async (token?: string) => (await api<ListForm[]>('GET', '/filtersConfig', { token })).body.length;
    const count = async (token?: string) => (await api<number>('GET', '/filtersConfig/count', { token })).body;
    expect(await count(viewer)).toBe(await listed(viewer));
    expect(await count(londonViewer)).toBe(await listed(londonViewer));
    // the APAC configuration is counted for the unscoped key, never for the EMEA viewer
    expect(await count()).toBe(await listed());
    expect(await count()).toBeGreaterThan(await count(viewer));
  });

  it('shows a location-scoped caller only its locations of a configuration, paged too', async () => {
    const one = await api<ListForm>('GET', `/filtersConfig/${ids.emea}`, { token: londonViewer });
    expect(one.body.locations).toEqual([{ locationName: inside.details.location }]);
    const seen: ListForm[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await api<{ items: ListForm[]; nextCursor: string | null }>('GET', `/filtersConfig?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: londonViewer });
      expect(page.status).toBe(200);
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.find((c) => c.id === ids.emea)?.locations).toEqual([{ locationName: inside.details.location }]);
    expect(seen.map((c) => c.id)).not.toContain(ids.apac);
  });
});

describe("a device's filter is fleet data; filters and providers are configuration", () => {
  it("answers a device's filter within the scope, and 404 as for a device without one outside it", async () => {
    expect((await api<{ id: number }>('GET', `/filters/device/${inside.devicesn}`, { token: viewer })).body).toMatchObject({ id: ids.filterIn });
    const hidden = await api('GET', `/filters/device/${outside.devicesn}`, { token: viewer });
    const none = await api('GET', `/filters/device/${unique('no-such-device')}`, { token: viewer });
    expect(hidden.status).toBe(404);
    expect([hidden.status, hidden.body]).toEqual([none.status, none.body]);
    expect((await api('GET', `/filters/device/${outside.devicesn}`)).status).toBe(200);
  });

  it('reads a filter by id only when its device is within the scope; otherwise 404 as an unknown id', async () => {
    expect((await api('GET', `/filters/${ids.filterIn}`, { token: viewer })).body).toMatchObject({ id: ids.filterIn, deviceSN: inside.devicesn });
    const hidden = await api('GET', `/filters/${ids.filterOut}`, { token: viewer });
    const unknown = await api('GET', `/filters/${base + 9}`, { token: viewer });
    expect(hidden.status).toBe(404);
    expect([hidden.status, hidden.body]).toEqual([unknown.status, unknown.body]);
    expect(JSON.stringify(hidden.body)).not.toContain(outside.devicesn);
    // a device the inventory does not know is outside every scope, as for /filters/device/{sn}
    const unknownDevice = await api('GET', `/filters/${ids.filterUnknownDevice}`, { token: viewer });
    expect([unknownDevice.status, unknownDevice.body]).toEqual([unknown.status, unknown.body]);
    // a filter naming no device names no place
    expect((await api('GET', `/filters/${ids.filterNoDevice}`, { token: viewer })).body).toMatchObject({ id: ids.filterNoDevice, name: 'no device' });
    // the unscoped key reads them all
    expect((await api('GET', `/filters/${ids.filterOut}`)).body).toMatchObject({ deviceSN: outside.devicesn });
    expect((await api('GET', `/filters/${ids.filterUnknownDevice}`)).status).toBe(200);
  });

  it('lists every filter (id, name) and every provider alike to a scoped caller', async () => {
    const [scoped, key] = [await api<{ id: number }[]>('GET', '/filters', { token: viewer }), await api<{ id: number }[]>('GET', '/filters')];
    expect(scoped.body.map((f) => f.id)).toEqual(key.body.map((f) => f.id));
    const providers = await api<{ providers: { name: string; devices: number }[] }>('GET', '/providers', { token: viewer });
    expect(providers.status).toBe(200);
    expect(providers.body.providers.map(({ name, devices }) => ({ name, devices }))).toEqual((await api<{ providers: { name: string; devices: number }[] }>('GET', '/providers')).body.providers.map(({ name, devices }) => ({ name, devices })));
  });
});
