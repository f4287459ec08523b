import type { Mailer } from '#lib/alarms/mailer';
import { notificationGate } from '#lib/alarms/notification';
import { silencedBy, type Silence } from '#lib/alarms/silences';
import { alarms } from '#lib/db/alarms';
import { channels } from '#lib/db/channels';
import { deliveries, type DueDelivery } from '#lib/db/deliveries';
import { repeats } from '#lib/db/repeats';
import { silences } from '#lib/db/silences';
import { watchers } from '#lib/db/watchers';
import { mapConcurrent } from '#lib/shared/concurrency';
import { logger } from '#lib/log';
import { recordWork } from '#lib/observability/metrics';
import type { WatcherRecord } from '#lib/watchers/types';
import { allowLocalWebhooks } from './address';
import { webhookBody } from './formats';
import { digestMail } from './mail';
import { audienceOf, notifiedAlarm } from './notice';
import { draftsFor, dueForRepeat, planDigests, repeatSlot } from './plan';
import { nextAttemptAt, retryPolicyFromEnv, verdictOf, type AttemptOutcome, type RetryPolicy } from './retry';
import type { Channel, DeliveryDraft, Digest, Target } from './types';
import { postWebhook, WEBHOOK_TIMEOUT_MS } from './webhook';

export interface NotificationSummary {
  /** Deliveries stored this run (one per digest and target). */
  digests: number;
  delivered: number;
  /** Of `delivered`, the mails. */
  mailed: number;
  retrying: number;
  failed: number;
  suppressed: number;
  /** False when the time budget or the per-run cap left work for the next run. */
  complete: boolean;
}

export interface NotifierOptions {
  mailer: Mailer;
  /** Epoch ms: no attempt starts after it, and none runs past it. */
  deadline: number;
  /** Attempts per run at most (NOTIFY_MAX_PER_RUN, default 100): the rest waits for the next run. */
  maxPerRun?: number;
  policy?: RetryPolicy;
  allowLocal?: boolean;
}

export const DEFAULT_MAX_PER_RUN = 100;
const WRITES_IN_FLIGHT = 16;
const DUE_PAGE = 25;
/** An attempt starts only when this much of the budget is left. */
const MIN_ATTEMPT_MS = 1_000;
/** How long a claimed delivery stays out of the due index while it is being attempted. */
const CLAIM_LEASE_MS = WEBHOOK_TIMEOUT_MS + 25_000;

export const maxPerRunFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const value = Number(env.NOTIFY_MAX_PER_RUN);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_PER_RUN;
};

const iso = (ms: number) => new Date(ms).toISOString();
const errorOf = (outcome: AttemptOutcome): string | undefined =>
  outcome.kind === 'timeout' ? 'timed out' : outcome.kind === 'refused' || outcome.kind === 'unreachable' ? outcome.reason : undefined;

/** Repeat markers once held slot indexes (< 1e9 for any interval of an hour or more); now slot starts in ms. */
const LEGACY_SLOT_INDEX_BELOW = 1e9;

/**
 * The notification engine the evaluator hands its work to (issue 16). `run()` turns pending
 * notices into stored deliveries (one digest per watcher, run and target; deterministic ids,
 * so a resumed run stores nothing twice), adds repeat digests that are due, then attempts due
 * deliveries, oldest first, within the deadline and the per-run cap. Whatever is left stays
 * stored and due: the next run carries it on (outbox pattern).
 */
export const notifier = (options: NotifierOptions) => {
  const summary: NotificationSummary = { digests: 0, delivered: 0, mailed: 0, retrying: 0, failed: 0, suppressed: 0, complete: true };
  const policy = options.policy ?? retryPolicyFromEnv();
  const allowLocal = options.allowLocal ?? allowLocalWebhooks();
  let budget = options.maxPerRun ?? maxPerRunFromEnv();
  let until = options.deadline;
  const inTime = (marginMs = 0) => Date.now() + marginMs < until;
  const channelCache = new Map<string, Promise<Channel | undefined>>();
  const channelOf = (id: string) => {
    if (!channelCache.has(id)) channelCache.set(id, channels.find(id));
    return channelCache.get(id)!;
  };

  const store = async (drafts: readonly DeliveryDraft[]): Promise<boolean> => {
    const stored = await mapConcurrent(drafts, WRITES_IN_FLIGHT, async (draft) => inTime() && (await deliveries.createIfAbsent(draft, iso(Date.now()))));
    for (const [i, created] of stored.entries()) {
      if (!created) continue;
      summary.digests++;
      if (drafts[i]!.status === 'suppressed') summary.suppressed++;
    }
    return inTime();
  };

  /** Stores the digests of pending notices, then drops the notices they carry from their alarms. */
  const collectNotices = async (): Promise<boolean> => {
    const pending = await alarms.pendingNotices();
    if (pending.length === 0) return true;
    if (!(await store(planDigests(pending.flatMap((p) => p.notices))))) return false;
    await mapConcurrent(pending, WRITES_IN_FLIGHT, async ({ alarm, notices }) => inTime() && (await alarms.noticesCollected(alarm, notices)));
    return inTime();
  };

  const repeatOf = async (watcher: WatcherRecord & { repeatIntervalSeconds: number }, active: readonly Silence[]): Promise<boolean> => {
    const now = Date.now();
    const interval = watcher.repeatIntervalSeconds;
    // the marker holds the start (ms) of the last slot done, so that slots of a changed interval
    // still compare; a marker from before holds a slot index, read with the current interval
    const slotStart = repeatSlot(now, interval) * interval * 1000;
    const marked = await repeats.lastSlot(watcher.id);
    const lastStart = marked !== undefined && marked < LEGACY_SLOT_INDEX_BELOW ? marked * interval * 1000 : marked;
    if (lastStart !== undefined && lastStart >= slotStart) return true;
    // acknowledged or silenced alarms are never re-notified (issue 15)
    const open = (await alarms.firingOf(watcher.id))
      .filter((alarm) => notificationGate(alarm, silencedBy(alarm, active, iso(now))).remind)
      .map((alarm) => notifiedAlarm(alarm));
    const due = dueForRepeat(open, now, interval);
    if (due.length > 0) {
      const drafts = draftsFor({
        type: 'alarms.repeat',
        at: iso(slotStart),
        watcher: { id: watcher.id, description: watcher.description, severity: watcher.severity, type: watcher.type },
        alarms: due,
        audience: audienceOf(watcher),
      });
      if (!(await store(drafts))) return false;
    }
    await repeats.done(watcher.id, slotStart, iso(now));
    return true;
  };

  /** Repeat digests (issue 16 item 2) of active watchers with `repeatIntervalSeconds`, one per interval. */
  const collectRepeats = async (): Promise<boolean> => {
    const due = (await watchers.list()).filter(
      (w): w is WatcherRecord & { repeatIntervalSeconds: number } => w.active && (w.repeatIntervalSeconds ?? 0) > 0,
    );
    if (due.length === 0) return true;
    const active = await silences.current(iso(Date.now()));
    for (const watcher of due) if (!inTime() || !(await repeatOf(watcher, active))) return false;
    return true;
  };

  const mail = async (digest: Digest, deliveryId: string, to: readonly string[]): Promise<AttemptOutcome> => {
    try {
      await options.mailer.send(digestMail(digest, deliveryId, to));
      return { kind: 'sent' };
    } catch (error) {
      return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
    }
  };

  const attempt = async (delivery: DueDelivery, target: Target): Promise<AttemptOutcome> => {
    if (target.kind === 'email') return mail(delivery.digest, delivery.deliveryId, target.to);
    const channel = await channelOf(target.channelId);
    if (!channel) return { kind: 'refused', reason: `channel ${target.channelId} was deleted` };
    if (channel.type === 'email') return mail(delivery.digest, delivery.deliveryId, channel.emails);
    const secret = await channels.secretOf(channel.id);
    if (!secret) return { kind: 'refused', reason: `channel ${channel.id} has no signing secret` };
    return postWebhook({
      url: channel.url,
      body: webhookBody(delivery.digest, channel.format, delivery.deliveryId, iso(Date.now())),
      deliveryId: delivery.deliveryId,
      secret,
      timeoutMs: Math.max(1, Math.min(WEBHOOK_TIMEOUT_MS, until - Date.now() - 250)),
      allowLocal,
    });
  };

  /** Records an outcome: delivered, due again after a backoff, or failed for good. */
  const settle = async (delivery: DueDelivery, outcome: AttemptOutcome, startedAt: number) => {
    const verdict = verdictOf(outcome);
    const now = Date.now();
    const facts = {
      at: iso(now),
      ...(outcome.kind === 'answered' ? { responseStatus: outcome.status } : {}),
      ...(errorOf(outcome) ? { error: errorOf(outcome) } : {}),
    };
    const next =
      verdict === 'retry'
        ? nextAttemptAt({
            attempts: delivery.attempts + 1,
            firstAttemptAt: Date.parse(delivery.firstAttemptAt ?? iso(startedAt)),
            now,
            policy,
            ...(outcome.kind === 'answered' && outcome.retryAfterSeconds !== undefined ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
          })
        : undefined;
    if (verdict === 'delivered') {
      await deliveries.settle(delivery.deliveryId, { status: 'delivered', ...facts });
      summary.delivered++;
      if (outcome.kind === 'sent') summary.mailed++;
    } else if (next !== undefined) {
      await deliveries.settle(delivery.deliveryId, { status: 'retrying', nextAttemptAt: iso(next), ...facts });
      summary.retrying++;
    } else {
      await deliveries.settle(delivery.deliveryId, { status: 'failed', ...facts });
      summary.failed++;
    }
    const log = { deliveryId: delivery.deliveryId, type: delivery.type, attempt: delivery.attempts + 1, verdict, ...facts };
    if (verdict === 'delivered') logger.info('notification delivered', log);
    else logger.warn('notification not delivered', log);
  };

  /** Claims one due delivery and makes one attempt; false when someone else had claimed it. */
  const attemptOne = async (delivery: DueDelivery): Promise<boolean> => {
    const startedAt = Date.now();
    if (!(await deliveries.claim(delivery, iso(startedAt), iso(startedAt + CLAIM_LEASE_MS)))) return false;
    budget--;
    await settle(delivery, await attempt(delivery, delivery.target), startedAt);
    return true;
  };

  /** Attempts due deliveries until none is due, the cap is spent or the budget runs low. */
  const deliverDue = async (): Promise<boolean> => {
    while (budget > 0 && inTime(MIN_ATTEMPT_MS)) {
      const due = await deliveries.due(iso(Date.now()), Math.min(budget, DUE_PAGE));
      if (due.length === 0) return true;
      let progressed = false;
      for (const delivery of due) {
        if (budget <= 0 || !inTime(MIN_ATTEMPT_MS)) break;
        progressed = (await attemptOne(delivery)) || progressed;
      }
      if (!progressed) return true;
    }
    return (await deliveries.due(iso(Date.now()), 1)).length === 0;
  };

  return {
    summary,
    /**
     * One pass: collect, then deliver, until `stopAt` (at most the deadline). Safe to call more
     * than once per run, and by concurrent runs: stored deliveries and claims never double.
     */
    async run(stopAt = options.deadline): Promise<NotificationSummary> {
      until = Math.min(stopAt, options.deadline);
      const before = { ...summary };
      const collected = (await collectNotices()) && (await collectRepeats());
      const delivered = await deliverDue();
      summary.complete = summary.complete && collected && delivered;
      // mails sent and failed SES calls are counted by the SES mailer itself
      const figures = {
        NotificationsSent: summary.delivered - summary.mailed - (before.delivered - before.mailed),
        NotificationsRetried: summary.retrying - before.retrying,
        NotificationsFailed: summary.failed - before.failed,
        NotificationsSuppressed: summary.suppressed - before.suppressed,
      };
      if (Object.values(figures).some((n) => n > 0)) await recordWork('notifications', figures);
      return summary;
    },
    /** Stores one delivery and attempts it at once (a channel test). */
    async sendNow(draft: DeliveryDraft): Promise<void> {
      await deliveries.createIfAbsent(draft, iso(Date.now()));
      const stored = await deliveries.get(draft.id);
      if (stored?.status === 'pending') await attemptOne(stored);
    },
  };
};
