/**
 * The demo fleet of `npm start` behind both vendor fakes: the simulated generator's devices
 * (SEED_DEVICES, SIM_ROOMS, SIM_SEED, SIM_CHURN as before), rooms split between Webex and Zoom,
 * and the environment that points the real adapters at the fakes (`DEVICE_PROVIDERS=webex,zoom`).
 * FAKE_429_RATE (default 0) makes both fakes throttle that share of requests; WEBEX_FAKE_PORT and
 * ZOOM_FAKE_PORT fix their ports (free ones when unset).
 */
import { providerFromEnv } from '../../../lib/inventory/provider/index';
import type { ProviderDevice } from '../../../lib/devices/types';
import { splitFleet, zoomRegionMap } from './fleet';
import { startWebexFake, type WebexFake } from './webex';
import { startZoomFake, type ZoomFake } from './zoom';

/** The local credentials of the fakes: not secrets, they open nothing but the fakes. */
export const FAKE_CREDENTIALS = {
  webex: { clientId: 'fake-webex-client', clientSecret: 'fake-webex-secret', refreshToken: 'fake-webex-refresh' },
  zoom: { accountId: 'fake-zoom-account', clientId: 'fake-zoom-client', clientSecret: 'fake-zoom-secret', webhookSecretToken: 'fake-zoom-webhook-secret-token' },
} as const;

export interface VendorFakes {
  webex: WebexFake;
  zoom: ZoomFake;
  /** What the sync and the refresh need to reach the fakes through the real adapters. */
  env: Record<string, string>;
  close: () => Promise<void>;
}

/** What points the real adapters at fakes serving at these URLs (with the fakes' credentials). */
export const fakeEnv = (webexUrl: string, zoomUrl: string): Record<string, string> => ({
  WEBEX_API_URL: `${webexUrl}/v1`,
  WEBEX_CLIENT_ID: FAKE_CREDENTIALS.webex.clientId,
  WEBEX_CLIENT_SECRET: FAKE_CREDENTIALS.webex.clientSecret,
  WEBEX_REFRESH_TOKEN: FAKE_CREDENTIALS.webex.refreshToken,
  ZOOM_API_URL: `${zoomUrl}/v2`,
  ZOOM_OAUTH_URL: zoomUrl,
  ZOOM_ACCOUNT_ID: FAKE_CREDENTIALS.zoom.accountId,
  ZOOM_CLIENT_ID: FAKE_CREDENTIALS.zoom.clientId,
  ZOOM_CLIENT_SECRET: FAKE_CREDENTIALS.zoom.clientSecret,
  // the receiver checks the fake's webhook signatures with it (POST /vendors/zoom/events)
  ZOOM_WEBHOOK_SECRET_TOKEN: FAKE_CREDENTIALS.zoom.webhookSecretToken,
});

/** Both fakes, serving `fleet` (each time asked: a changing fleet changes in the fakes too). */
export const startVendorFakes = async (fleet: () => readonly ProviderDevice[], options: { rate429?: number; webexPort?: number; zoomPort?: number } = {}): Promise<VendorFakes> => {
  // split again only when the fleet is another list (the fakes then rebuild their view of it)
  let last: { from: readonly ProviderDevice[]; split: ReturnType<typeof splitFleet> } | undefined;
  const split = () => {
    const devices = fleet();
    if (last?.from !== devices) last = { from: devices, split: splitFleet(devices) };
    return last.split;
  };
  const faults = { rate429: options.rate429 ?? 0 };
  const started = await Promise.allSettled([
    startWebexFake({ devices: () => split().webex, ...FAKE_CREDENTIALS.webex, faults, port: options.webexPort }),
    startZoomFake({ devices: () => split().zoom, ...FAKE_CREDENTIALS.zoom, faults: { ...faults, retryAfterSeconds: null }, port: options.zoomPort }),
  ]);
  const [webexStarted, zoomStarted] = started;
  if (webexStarted.status === 'rejected' || zoomStarted.status === 'rejected') {
    // one could not listen (a fixed port in use): the other is closed, not left holding the process
    await Promise.all(started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.close() : undefined)));
    throw started.find((outcome) => outcome.status === 'rejected')!.reason;
  }
  const [webex, zoom] = [webexStarted.value, zoomStarted.value];
  const env = { ...fakeEnv(webex.url, zoom.url), DEVICE_PROVIDERS: 'webex,zoom', ZOOM_REGION_MAP: JSON.stringify(zoomRegionMap(fleet())) };
  return { webex, zoom, env, close: async () => void (await Promise.all([webex.close(), zoom.close()])) };
};

/** A fake's port from the environment: undefined (a free one) when unset; throws naming the variable when it is no port. */
export const fakePort = (env: NodeJS.ProcessEnv, name: `${string}_FAKE_PORT`): number | undefined => {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port < 1 || port > 65_535) throw new Error(`${name} must be a TCP port from 1 to 65535 (got ${JSON.stringify(value)})`);
  return port;
};

/** The fakes of `npm start`: the simulated demo fleet of the environment (SEED_DEVICES, ...). */
export const startDemoFakes = async (env: NodeJS.ProcessEnv = process.env): Promise<VendorFakes> => {
  const ports = { webexPort: fakePort(env, 'WEBEX_FAKE_PORT'), zoomPort: fakePort(env, 'ZOOM_FAKE_PORT') };
  const simulated = providerFromEnv({ ...env, DEVICE_PROVIDER: 'simulated', DEVICE_PROVIDERS: '' });
  let latest: ProviderDevice[] = await simulated.listDevices();
  // the simulated fleet's churn, taken once a second (listDevices is async, the fakes ask synchronously)
  const timer = setInterval(() => void simulated.listDevices().then((devices) => (latest = devices)), 1000);
  timer.unref();
  const fakes = await startVendorFakes(() => latest, { rate429: Number(env.FAKE_429_RATE ?? 0) || 0, ...ports }).catch((error: unknown) => {
    clearInterval(timer);
    throw error;
  });
  return { ...fakes, close: async () => (clearInterval(timer), fakes.close()) };
};
