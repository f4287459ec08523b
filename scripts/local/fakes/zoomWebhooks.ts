/**
 * The Zoom fake's webhooks: when a device of its fleet goes online or offline (by hand through
 * `POST /_fake/devices/<serial>`, or the fleet's own churn), it sends Zoom's `zoomroom.alert` to
 * the receiver it was given, signed as Zoom signs (`x-zm-request-timestamp`, `x-zm-signature`
 * over `v0:<timestamp>:<body>` with the app's secret token). The faults `dropWebhooks` (the next
 * n events are not sent), `duplicateWebhooks` (the next n are sent twice) and `webhookDelayMs`
 * make it misbehave as Zoom can. It signs with its own code, not the receiver's, so that a
 * mistake in either shows. A receiver that does not answer 2xx gets the event again after
 * `retryDelaysMs` (Zoom: about 5, 20 and 60 minutes), then the event is dropped.
 */
import { createHmac } from 'node:crypto';
import type { Faults } from './server';

/** One device as the pushes see it: its room, its type and whether it is online. */
export interface PushedDevice {
  serial: string;
  roomId: string;
  roomName: string;
  deviceType: string;
  online: boolean;
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface WebhookStats {
  webhooksSent: number;
  webhooksDropped: number;
  webhooksFailed: number;
}

/** Zoom's word for the computer of a room going offline; other devices are "<type> is disconnected". */
export const issueOf = (deviceType: string): string => (deviceType === 'Zoom Rooms Computer' ? 'Zoom room is offline' : `${deviceType} is disconnected`);

/** The body of the alert for a device's change at `at` (epoch ms): alert_kind 1 triggered (offline), 2 cleared (back online). */
/** Zoom's signature of `body` sent at `timestamp`. */
export const signatureOf = (secret: string, timestamp: string, body: string): string => `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

export const alertBody = (device: PushedDevice, at: number, accountId: string) => ({
  event: 'zoomroom.alert',
  event_ts: at,
  payload: {
    account_id: accountId,
    object: {
      id: device.roomId,
      room_name: device.roomName,
      component: device.deviceType,
      issue: issueOf(device.deviceType),
      alert_kind: device.online ? 2 : 1,
      ...(device.online ? { cleared_time: new Date(at).toISOString() } : { triggered_time: new Date(at).toISOString() }),
    },
  },
});

export const zoomWebhooks = (options: { accountId: string; faults: Faults; retryDelaysMs?: readonly number[] }) => {
  let target: WebhookTarget | undefined;
  let known: Map<string, PushedDevice> | undefined;
  const stats: WebhookStats = { webhooksSent: 0, webhooksDropped: 0, webhooksFailed: 0 };
  const retryDelaysMs = options.retryDelaysMs ?? [5 * 60_000, 20 * 60_000, 60 * 60_000];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const post = async (to: WebhookTarget, body: string, attempt: number): Promise<void> => {
    // seconds, as Zoom sends it
    const timestamp = String(Math.floor(Date.now() / 1000));
    try {
      const answer = await fetch(to.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-zm-request-timestamp': timestamp, 'x-zm-signature': signatureOf(to.secret, timestamp, body) },
        body,
        signal: AbortSignal.timeout(3000),
      });
      await answer.arrayBuffer();
      if (answer.ok) {
        stats.webhooksSent++;
        return;
      }
    } catch {
      // not answered within Zoom's 3 seconds, or not reachable: retried like any other failure
    }
    stats.webhooksFailed++;
    const delay = retryDelaysMs[attempt];
    if (delay !== undefined) later(delay, () => void post(to, body, attempt + 1));
  };

  const send = (device: PushedDevice, at: number) => {
    const to = target;
    if (!to) return;
    const { faults } = options;
    if (faults.dropWebhooks > 0) {
      faults.dropWebhooks--;
      stats.webhooksDropped++;
      return;
    }
    const body = JSON.stringify(alertBody(device, at, options.accountId));
    let copies = 1;
    if (faults.duplicateWebhooks > 0) {
      faults.duplicateWebhooks--;
      copies = 2;
    }
    for (let copy = 0; copy < copies; copy++) {
      if (faults.webhookDelayMs > 0) later(faults.webhookDelayMs, () => void post(to, body, 0));
      else void post(to, body, 0);
    }
  };

  return {
    stats,
    /** Where events go from now on (undefined: nowhere); the devices seen so far are the starting point. */
    setTarget(next: WebhookTarget | undefined) {
      target = next;
    },
    get target() {
      return target;
    },
    /** The fleet as it is now: each device whose online state changed since the last look is pushed. */
    observe(devices: readonly PushedDevice[]) {
      const now = Date.now();
      const current = new Map(devices.map((device) => [device.serial, device]));
      if (known) {
        for (const device of devices) {
          const before = known.get(device.serial);
          if (before && before.online !== device.online) send(device, now);
        }
      }
      known = current;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
};
