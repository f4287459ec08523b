import { httpProvider } from './http';
import { simulatedProvider } from './simulated';
import type { DeviceProvider } from './types';

export type { DeviceProvider } from './types';
export { ProviderError } from './http';

const int = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
};

export const DEFAULT_SEED_DEVICES = 300;
export const DEFAULT_SIM_SEED = 42;

/** Resolves a named secret (lib/adapters/secrets.ts: the environment locally, SSM in AWS). */
export type SecretLookup = (name: string) => Promise<string | undefined>;

/**
 * The provider configured by the environment: DEVICE_PROVIDER=simulated (default; SEED_DEVICES,
 * SIM_ROOMS, SIM_SEED, SIM_CHURN, SIM_TICK_SECONDS) or http (DEVICE_PROVIDER_URL, and the secret
 * DEVICE_PROVIDER_TOKEN: through `secrets` when given, read at the first request; else from `env`).
 */
export const providerFromEnv = (env: NodeJS.ProcessEnv = process.env, secrets?: SecretLookup): DeviceProvider => {
  const kind = env.DEVICE_PROVIDER ?? 'simulated';
  if (kind === 'http') {
    if (!env.DEVICE_PROVIDER_URL) throw new Error('DEVICE_PROVIDER=http needs DEVICE_PROVIDER_URL');
    const token = secrets ? () => secrets('DEVICE_PROVIDER_TOKEN') : (env.DEVICE_PROVIDER_TOKEN ?? '');
    return httpProvider({ baseUrl: env.DEVICE_PROVIDER_URL, token });
  }
  if (kind !== 'simulated') throw new Error(`DEVICE_PROVIDER must be simulated or http (got ${kind})`);
  const devices = int(env.SEED_DEVICES, DEFAULT_SEED_DEVICES);
  return simulatedProvider({
    seed: int(env.SIM_SEED, DEFAULT_SIM_SEED),
    devices,
    rooms: env.SIM_ROOMS ? int(env.SIM_ROOMS, Math.ceil(devices / 4)) : undefined,
    churn: int(env.SIM_CHURN, 5),
    tickSeconds: Math.max(1, int(env.SIM_TICK_SECONDS, 60)),
  });
};
