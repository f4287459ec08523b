import { httpProvider } from './http';
import { configuredNames, type ProviderKind } from './kinds';
import { parseNameMap } from './regions';
import { simulatedProvider } from './simulated';
import type { DeviceProvider } from './types';
import type { VendorHttpOptions } from './vendorHttp';
import { webexProvider } from './webex';
import { LOCATION_LEVELS, zoomProvider, type LocationLevel } from './zoom';

export type { DeviceProvider, ProviderMeter, StatusReading } from './types';
export { newMeter } from './types';
export { configuredNames } from './kinds';
export { ProviderError } from './vendorHttp';
export { PagingBound, type ListingBounds } from './paging';
import { ProviderError } from './vendorHttp';

const int = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
};

const DEFAULT_SEED_DEVICES = 300;
const DEFAULT_SIM_SEED = 42;

/** A configured provider: its name is its kind, and the `vendor` of the devices it reports. */
export interface NamedProvider {
  name: ProviderKind;
  provider: DeviceProvider;
}

/**
 * Reads a secret by name: the environment locally; in AWS an SSM SecureString named by
 * `<NAME>_PARAM` (lib/adapters/secrets.ts, passed in by the functions). `fresh` skips a cache.
 */
type SecretReader = (name: string, fresh?: boolean) => Promise<string | undefined>;

const simulatedFromEnv = (env: NodeJS.ProcessEnv): DeviceProvider => {
  const devices = int(env.SEED_DEVICES, DEFAULT_SEED_DEVICES);
  return simulatedProvider({
    seed: int(env.SIM_SEED, DEFAULT_SIM_SEED),
    devices,
    rooms: env.SIM_ROOMS ? int(env.SIM_ROOMS, Math.ceil(devices / 4)) : undefined,
    churn: int(env.SIM_CHURN, 5),
    tickSeconds: Math.max(1, int(env.SIM_TICK_SECONDS, 60)),
  });
};

/**
 * One provider configured by the environment: DEVICE_PROVIDER=simulated (default; SEED_DEVICES,
 * SIM_ROOMS, SIM_SEED, SIM_CHURN, SIM_TICK_SECONDS) or http (DEVICE_PROVIDER_URL, and the secret
 * DEVICE_PROVIDER_TOKEN: through `secrets` when given, read at the first request; else from `env`).
 */
export const providerFromEnv = (env: NodeJS.ProcessEnv = process.env, secrets?: SecretReader): DeviceProvider => {
  const kind = env.DEVICE_PROVIDER || 'simulated';
  if (kind === 'http') {
    if (!env.DEVICE_PROVIDER_URL) throw new Error('DEVICE_PROVIDER=http needs DEVICE_PROVIDER_URL');
    const token = secrets ? () => secrets('DEVICE_PROVIDER_TOKEN') : (env.DEVICE_PROVIDER_TOKEN ?? '');
    return httpProvider({ baseUrl: env.DEVICE_PROVIDER_URL, token });
  }
  if (kind !== 'simulated') throw new Error(`DEVICE_PROVIDER must be simulated or http (got ${kind})`);
  return simulatedFromEnv(env);
};

/** The HTTP limits of one vendor: `<VENDOR>_<SETTING>`, else `PROVIDER_<SETTING>`, else the default. */
const httpLimits = (env: NodeJS.ProcessEnv, prefix: string): Omit<VendorHttpOptions, 'vendor'> => {
  const setting = (name: string, fallback: number) => int(env[`${prefix}_${name}`] ?? env[`PROVIDER_${name}`], fallback);
  return {
    timeoutMs: setting('TIMEOUT_MS', 15_000),
    maxWaitMs: setting('MAX_WAIT_SECONDS', 60) * 1000,
    totalWaitMs: setting('SYNC_WAIT_SECONDS', 600) * 1000,
    budget: setting('REQUEST_BUDGET', 50_000),
    backoffMs: setting('BACKOFF_MS', 250),
  };
};

const level = (env: NodeJS.ProcessEnv, name: string, fallback: LocationLevel): LocationLevel => {
  const value = env[name] || fallback;
  if (!(LOCATION_LEVELS as readonly string[]).includes(value)) throw new Error(`${name} must be one of ${LOCATION_LEVELS.join(', ')} (got ${value})`);
  return value as LocationLevel;
};

/** One configured provider by name, its secrets read through `secret` when it needs them. */
const build = (name: ProviderKind, env: NodeJS.ProcessEnv, read: SecretReader): DeviceProvider => {
  // a parameter not created is a credential not given (a Webex access token beside a refresh grant)
  const secret: SecretReader = (key, fresh) => read(key, fresh).catch((error: unknown) => (error instanceof Error && error.name === 'ParameterNotFound' ? undefined : Promise.reject(error)));
  switch (name) {
    case 'webex':
      return webexProvider({
        ...(env.WEBEX_API_URL ? { apiUrl: env.WEBEX_API_URL } : {}),
        credentials: async (fresh) => {
          const [clientId, clientSecret, refreshToken] = await Promise.all(
            ['WEBEX_CLIENT_ID', 'WEBEX_CLIENT_SECRET', 'WEBEX_REFRESH_TOKEN'].map((name) => secret(name, fresh)),
          );
          // an access token as is only when no refresh grant is configured
          if (clientId && clientSecret && refreshToken) return { clientId, clientSecret, refreshToken };
          return { accessToken: await secret('WEBEX_ACCESS_TOKEN', fresh) };
        },
        pageSize: Math.max(1, int(env.WEBEX_PAGE_SIZE, 1000)),
        regions: parseNameMap('WEBEX_REGION_MAP', env.WEBEX_REGION_MAP),
        http: httpLimits(env, 'WEBEX'),
      });
    case 'zoom':
      return zoomProvider({
        ...(env.ZOOM_API_URL ? { apiUrl: env.ZOOM_API_URL } : {}),
        ...(env.ZOOM_OAUTH_URL ? { oauthUrl: env.ZOOM_OAUTH_URL } : {}),
        credentials: async (fresh) => ({
          accountId: await secret('ZOOM_ACCOUNT_ID', fresh),
          clientId: await secret('ZOOM_CLIENT_ID', fresh),
          clientSecret: await secret('ZOOM_CLIENT_SECRET', fresh),
        }),
        regionLevel: level(env, 'ZOOM_REGION_LEVEL', 'country'),
        locationLevel: level(env, 'ZOOM_LOCATION_LEVEL', 'city'),
        regions: parseNameMap('ZOOM_REGION_MAP', env.ZOOM_REGION_MAP),
        pageSize: int(env.ZOOM_PAGE_SIZE, 300),
        concurrency: Math.max(1, int(env.ZOOM_CONCURRENCY, 8)),
        http: httpLimits(env, 'ZOOM'),
      });
    case 'http':
      return providerFromEnv({ ...env, DEVICE_PROVIDER: 'http' }, secret);
    case 'simulated':
      return simulatedFromEnv(env);
  }
};

/**
 * Every configured provider, in the order DEVICE_PROVIDERS names them (which matters for one serial
 * number listed twice); their secrets through `secret` (lib/adapters/secrets.ts in the functions), else from `env`.
 */
export const providersFromEnv = (
  env: NodeJS.ProcessEnv = process.env,
  secret: SecretReader = async (name) => env[name] || undefined,
): NamedProvider[] =>
  configuredNames(env).map((name) => ({ name, provider: build(name, env, secret) }));

/**
 * A refresh's provider: the device's own vendor (as stored), else each configured provider in turn
 * until one knows the serial number.
 */
export const fleetProvider = (providers: readonly NamedProvider[]): DeviceProvider => ({
  async listDevices(meter, bounds) {
    if (providers.length === 0) throw new ProviderError('no device provider configured (DEVICE_PROVIDERS)');
    return (await Promise.all(providers.map(({ provider }) => provider.listDevices(meter, bounds)))).flat();
  },
  async getDevice(devicesn, stored, meter) {
    if (providers.length === 0) throw new ProviderError('no device provider configured (DEVICE_PROVIDERS)');
    const own = providers.find(({ name }) => name === stored?.vendor);
    if (own) {
      const found = await own.provider.getDevice(devicesn, stored, meter);
      return found && { ...found, vendor: own.name };
    }
    for (const { name, provider } of providers) {
      const found = await provider.getDevice(devicesn, stored, meter);
      if (found) return { ...found, vendor: name };
    }
    return undefined;
  },
});
