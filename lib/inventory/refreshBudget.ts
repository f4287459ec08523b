import type { DeviceProvider } from './provider/index';
import { ServiceUnavailable } from '#lib/shared/errors';
import { timerMs } from '#lib/shared/timer';

/*
 * `POST /videoDevice/refresh/{devicesn}` asks the provider and stores the answer inside the
 * function's timeout (10 s), then nudges the queue evaluator (lib/adapters/nudge.ts, at most
 * 1.5 s), which evaluates the device's alarms in a function of its own. The provider's budget
 * comes from the time the invocation has left, so that provider + RESERVE_MS never exceeds it.
 */
/** The function's timeout, when there is no Lambda context to ask (serverless offline). */
export const REFRESH_TIMEOUT_MS = 10_000;
export const PROVIDER_MAX_MS = 4_000;
/** Kept free: the store writes after the provider answered, the nudge, the answer. */
export const RESERVE_MS = 2_000;

/** What the provider may take, with `remainingMs` left in the invocation: at most half of what is not reserved. */
export const providerBudget = (remainingMs: number): number => Math.max(0, Math.min(PROVIDER_MAX_MS, Math.floor((remainingMs - RESERVE_MS) / 2)));

/** `provider` whose single-device reads give up after `ms` (503 to the client: retry later). */
export const askingWithin = (provider: DeviceProvider, ms: number): DeviceProvider => ({
  ...provider,
  // every argument passes through: a fleet of providers asks the stored device's own vendor
  getDevice: (devicesn, stored, meter) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ServiceUnavailable(`the device provider did not answer within ${ms} ms; retry later`)), timerMs(ms));
    });
    return Promise.race([provider.getDevice(devicesn, stored, meter), late]).finally(() => clearTimeout(timer));
  },
});
