import type { DeviceProvider } from './provider/index';
import { ServiceUnavailable } from '#lib/shared/errors';
import { timerMs } from '#lib/shared/timer';

/*
 * `POST /videoDevice/refresh/{devicesn}` asks the provider, stores the answer, then evaluates the
 * device's alarms, all inside the function's timeout (10 s; it used to allow 5 s for the
 * provider plus 5 s for the evaluation, its whole timeout, leaving nothing for the store writes and
 * the answer). Both budgets come from the time the invocation has left, so that
 * provider + evaluation + RESERVE_MS never exceeds it.
 */
/** The function's timeout, when there is no Lambda context to ask (serverless offline). */
export const REFRESH_TIMEOUT_MS = 10_000;
export const PROVIDER_MAX_MS = 4_000;
export const EVALUATION_MAX_MS = 5_000;
/** Kept free: the store writes after the provider answered, one evaluation step past its deadline, the answer. */
export const RESERVE_MS = 2_000;
/** An evaluation with less than this left is not started: the change stays queued for the evaluator's next tick. */
const MIN_EVALUATION_MS = 500;

/** What the provider may take, with `remainingMs` left in the invocation: at most half of what is not reserved. */
export const providerBudget = (remainingMs: number): number => Math.max(0, Math.min(PROVIDER_MAX_MS, Math.floor((remainingMs - RESERVE_MS) / 2)));

/** What the evaluation may take once the refresh is stored, with `remainingMs` left; 0: leave it queued. */
export const evaluationBudget = (remainingMs: number): number => {
  const budget = Math.min(EVALUATION_MAX_MS, remainingMs - RESERVE_MS);
  return budget >= MIN_EVALUATION_MS ? budget : 0;
};

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
