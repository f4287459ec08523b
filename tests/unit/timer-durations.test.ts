import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { postWebhook } from '#lib/notify/webhook';
import { pause } from '#lib/shared/deadline';
import { MAX_TIMER_MS, sleep, timeoutSignal, timerMs } from '#lib/shared/timer';

/*
 * A computed budget (a third of what is left before a deadline, minus a margin) is a fraction of a
 * millisecond more often than not; AbortSignal.timeout throws ERR_OUT_OF_RANGE for one, and a
 * webhook delivery documented never to throw rejected, failing the whole alarm run.
 */

describe('durations handed to timers and signals', () => {
  it('are whole milliseconds between 1 and 2^31 - 1, rounded down, whatever was computed', () => {
    expect(timerMs(4977.666748046875)).toBe(4977);
    expect(timerMs(0.4)).toBe(1);
    expect(timerMs(-250.5)).toBe(1);
    expect(timerMs(Number.NaN)).toBe(1);
    expect(timerMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(timerMs(0, 0)).toBe(0);
    fc.assert(
      fc.property(fc.double(), (ms) => {
        const whole = timerMs(ms);
        expect(Number.isInteger(whole) && whole >= 1 && whole <= MAX_TIMER_MS).toBe(true);
      }),
    );
  });

  it('make an abort signal and a sleep from any number without throwing', async () => {
    fc.assert(fc.property(fc.double(), (ms) => void expect(() => timeoutSignal(ms)).not.toThrow()));
    await expect(sleep(0.25)).resolves.toBeUndefined();
    await expect(pause(1.5)).resolves.toBeUndefined();
  });
});

describe('a webhook attempt given a fractional budget', () => {
  it('answers an outcome and never throws', async () => {
    // a receiver that answers at once: the attempt ends with its answer, not with its timeout
    const server = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      for (const timeoutMs of [4977.666748046875, 0.3, -12.5, Number.NaN]) {
        const outcome = postWebhook({ url, body: '{}', deliveryId: 'd-1', secret: 's', timeoutMs, allowLocal: true });
        await expect(outcome).resolves.toMatchObject({ kind: expect.stringMatching(/^(answered|timeout)$/) });
      }
      expect(await postWebhook({ url, body: '{}', deliveryId: 'd-2', secret: 's', timeoutMs: 1_000.5, allowLocal: true })).toEqual({ kind: 'answered', status: 204 });
    } finally {
      server.close();
    }
  });
});
