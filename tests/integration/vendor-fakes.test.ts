import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newMeter } from '#lib/inventory/provider/index';
import { fakePort, startDemoFakes } from '../../scripts/local/fakes/index';
import { freePort } from '../../scripts/local/ports';
import type { WebexFake } from '../../scripts/local/fakes/webex';
import type { ZoomFake } from '../../scripts/local/fakes/zoom';
import { fleetOf, webexAdapter, webexFake, zoomAdapter, zoomFake } from '../support/vendors';

// The vendor fakes' control path, as a person uses it against npm start: faults checked, one
// device's fields set by hand, fixed ports, and no fake failure that takes the process down.
const fleet = fleetOf(47, 24, 6);
let webex: WebexFake;
let zoom: ZoomFake;

beforeAll(async () => {
  webex = await webexFake(() => fleet, { extras: false });
  zoom = await zoomFake(() => fleet, { extras: false });
});
afterAll(async () => {
  await Promise.all([webex.close(), zoom.close()]);
});

const post = async (url: string, body: string, method = 'POST') => {
  const answer = await fetch(url, { method, body });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
};

describe('POST /_fake/faults', () => {
  it.each([
    ['{"down":"abc"}', /down must be null or an HTTP status from 400 to 599/],
    ['{"down":99}', /down must be/],
    ['{"rate429":2}', /rate429 must be a number from 0 to 1/],
    ['{"slowMs":-1}', /slowMs must be/],
    ['{"retryAfterSeconds":"1"}', /retryAfterSeconds must be/],
    ['{"downn":500}', /unknown fault "downn"; known: rate429, /],
    ['[1]', /must be a JSON object/],
    ['{"down":', /must be JSON/],
  ])('refuses %s with 400 naming the field, and changes nothing', async (body, message) => {
    const answer = await post(`${webex.url}/_fake/faults`, body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(message);
    expect(webex.faults.down).toBeNull();
    // the fake still serves
    expect((await webexAdapter(webex.url).listDevices()).length).toBe(fleet.length);
  });

  it('applies a valid one, and heals', async () => {
    expect((await post(`${zoom.url}/_fake/faults`, '{"down":503}')).body).toMatchObject({ down: 503 });
    await expect(zoomAdapter(zoom.url, { http: { backoffMs: 1, maxWaitMs: 10, totalWaitMs: 50, timeoutMs: 2000 } }).listDevices()).rejects.toThrow(/503/);
    expect((await post(`${zoom.url}/_fake/faults`, '{"down":null}')).status).toBe(200);
  });

  it('an error inside a fake answers 500, is logged, and the fake serves on', async () => {
    let fail = true;
    const fragile = await webexFake(() => {
      if (fail) throw new Error('the fleet broke');
      return fleet;
    }, { accessToken: 'fake-token' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await fetch(`${fragile.url}/v1/devices?max=10`, { headers: { authorization: 'Bearer fake-token' } });
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({ message: 'the webex fake failed: the fleet broke' });
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/\[webex fake\] GET \/v1\/devices failed/);
      // the control path too, which runs outside the vendor's own handler
      expect(await post(`${fragile.url}/_fake/devices/${fleet[0]!.devicesn}`, '{"software":"x"}')).toEqual({ status: 500, body: { message: 'the webex fake failed: the fleet broke' } });
      expect(String(logged.mock.calls[1]?.[0])).toMatch(/\[webex fake\] POST \/_fake\/devices\/\S+ failed/);
      fail = false;
      expect((await webexAdapter(fragile.url).listDevices()).length).toBeGreaterThan(0);
    } finally {
      logged.mockRestore();
      await fragile.close();
    }
  });
});

describe('POST /_fake/devices/<serial>', () => {
  const [first, second] = [fleet[0]!, fleet[1]!];

  it('sets any Webex field of one device, and the connected shorthand', async () => {
    const set = await post(`${webex.url}/_fake/devices/${first.devicesn}`, JSON.stringify({ software: 'RoomOS 99', displayName: 'Shown \u202ename', connected: !first.status.connected }));
    expect(set).toEqual({ status: 200, body: { serial: first.devicesn, fields: { connected: !first.status.connected, software: 'RoomOS 99', displayName: 'Shown \u202ename' } } });
    const listed = await webexAdapter(webex.url).listDevices();
    const device = listed.find((d) => d.devicesn === first.devicesn)!;
    expect(device.vendorDetails?.software).toBe('RoomOS 99');
    expect(device.status.connected).toBe(!first.status.connected);
    // every other device as the fleet has it
    expect(listed.find((d) => d.devicesn === second.devicesn)?.vendorDetails?.software).toMatch(/^RoomOS 11/);
  });

  it('sets Zoom fields, removes one with null, and moves a device to another room or location', async () => {
    await post(`${zoom.url}/_fake/devices/${first.devicesn}`, JSON.stringify({ app_version: '7.0.0', device_model: null, device_type: 'Kiosk', location: 'all', room: 'Room \u200bX' }));
    const device = (await zoomAdapter(zoom.url).listDevices()).find((d) => d.devicesn === first.devicesn)!;
    expect(device.vendorDetails?.software).toBe('7.0.0');
    expect(device.devicemodel).toBe('Kiosk');
    expect(device.details).toMatchObject({ location: 'all', room: 'Room \u200bX' });
  });

  it('keeps a setting when the fleet changes, until DELETE clears it', async () => {
    webex.setDevices(() => [...fleet]);
    expect((await webexAdapter(webex.url).listDevices()).find((d) => d.devicesn === first.devicesn)?.vendorDetails?.software).toBe('RoomOS 99');
    expect((await post(`${webex.url}/_fake/devices/${first.devicesn}`, '', 'DELETE')).status).toBe(200);
    expect((await webexAdapter(webex.url).listDevices()).find((d) => d.devicesn === first.devicesn)?.vendorDetails?.software).toMatch(/^RoomOS 11/);
  });

  it('refuses an unknown serial number (404), a bad shorthand and a body that is no object (400)', async () => {
    expect(await post(`${webex.url}/_fake/devices/NOPE`, '{"software":"x"}')).toEqual({ status: 404, body: { message: 'no device with serial number "NOPE" in this fake\'s fleet' } });
    expect(await post(`${zoom.url}/_fake/devices/${second.devicesn}`, '{"connected":"no"}')).toEqual({ status: 400, body: { message: 'connected must be true or false' } });
    expect((await post(`${zoom.url}/_fake/devices/${second.devicesn}`, '"x"')).status).toBe(400);
    expect((await post(`${zoom.url}/_fake/elsewhere`, '{}')).status).toBe(404);
    // nothing was set by the refused ones
    const meter = newMeter();
    const device = (await zoomAdapter(zoom.url).listDevices(meter)).find((d) => d.devicesn === second.devicesn)!;
    expect(device.status.connected).toBe(second.status.connected);
  });
});

describe('the fakes of npm start', () => {
  it('listen on WEBEX_FAKE_PORT and ZOOM_FAKE_PORT when set, on free ports otherwise', async () => {
    const [webexPort, zoomPort] = [await freePort(), await freePort()];
    const fixed = await startDemoFakes({ SEED_DEVICES: '8', WEBEX_FAKE_PORT: String(webexPort), ZOOM_FAKE_PORT: String(zoomPort) });
    try {
      expect([fixed.webex.url, fixed.zoom.url]).toEqual([`http://127.0.0.1:${webexPort}`, `http://127.0.0.1:${zoomPort}`]);
      expect(fixed.env.WEBEX_API_URL).toBe(`http://127.0.0.1:${webexPort}/v1`);
    } finally {
      await fixed.close();
    }
    const free = await startDemoFakes({ SEED_DEVICES: '8' });
    await free.close();
    expect(free.webex.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses a port that is no port, naming the variable; one in use fails the start and closes the other fake', async () => {
    expect(() => fakePort({ ZOOM_FAKE_PORT: 'abc' }, 'ZOOM_FAKE_PORT')).toThrow('ZOOM_FAKE_PORT must be a TCP port from 1 to 65535 (got "abc")');
    expect(() => fakePort({ WEBEX_FAKE_PORT: '70000' }, 'WEBEX_FAKE_PORT')).toThrow(/WEBEX_FAKE_PORT must be/);
    expect(fakePort({ WEBEX_FAKE_PORT: '' }, 'WEBEX_FAKE_PORT')).toBeUndefined();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    const webexPort = await freePort();
    try {
      await expect(startDemoFakes({ SEED_DEVICES: '8', WEBEX_FAKE_PORT: String(webexPort), ZOOM_FAKE_PORT: String(taken) })).rejects.toThrow(
        `the zoom fake cannot listen on 127.0.0.1:${taken} (EADDRINUSE)`,
      );
      // the Webex fake that did start was closed again: its port is free
      const again = createServer();
      await new Promise<void>((resolve, reject) => again.once('error', reject).listen(webexPort, '127.0.0.1', resolve));
      await new Promise((resolve) => again.close(resolve));
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
