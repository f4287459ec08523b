import type { Mailer } from '#lib/notify/mail/types';
import * as channels from '#lib/notify/repository/channels';
import * as deliveries from '#lib/notify/repository/deliveries';
import type { DueDelivery } from '#lib/notify/repository/deliveries';
import { logger } from '#lib/shared/log';
import { isDeadlineExceeded } from '#lib/shared/deadline';
import { timerMs } from '#lib/shared/timer';
import { allowLocalWebhooks } from './address';
import { webhookBody } from './pure/formats';
import { digestMail } from './mail/pure/render';
import { mailAllowedDomains, mayMail } from './mail/pure/recipients';
import { nextAttemptAt, retryPolicyFromEnv, verdictOf, type AttemptOutcome, type RetryPolicy } from './pure/retry';
import type { Channel, DeliveryDraft, Digest, Target } from './types';
import { postWebhook, WEBHOOK_TIMEOUT_MS } from './webhook';
import { deliverToServiceNow } from './servicenow/deliver';

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

const DEFAULT_MAX_PER_RUN = 100;
const DUE_PAGE = 25;
/** An attempt starts only when this much of the budget is left. */
const MIN_ATTEMPT_MS = 1_000;
/** How long a claimed delivery stays out of the due index while it is being attempted. */
const CLAIM_LEASE_MS = WEBHOOK_TIMEOUT_MS + 25_000;

const maxPerRunFromEnv = (env: NodeJS.ProcessEnv = process.env): number => {
  const value = Number(env.NOTIFY_MAX_PER_RUN);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_PER_RUN;
};

export const iso = (ms: number) => new Date(ms).toISOString();
const errorOf = (outcome: AttemptOutcome): string | undefined =>
  outcome.kind === 'timeout' ? 'timed out' : outcome.kind === 'refused' || outcome.kind === 'unreachable' ? outcome.reason : undefined;

/**
 * The sending half of the notification engine: attempts stored deliveries (mail or signed
 * webhook), each claimed first, and records each outcome (delivered, retrying after a
 * backoff, failed). Apart from the collecting half (notifier.ts), so that a channel test
 * bundles only what it runs.
 */
export const deliverer = (options: NotifierOptions) => {
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

  const allowedDomains = mailAllowedDomains();
  const mail = async (digest: Digest, deliveryId: string, addresses: readonly string[]): Promise<AttemptOutcome> => {
    // also at send time: recipients stored before the stage's allow-list was narrowed
    const to = addresses.filter((address) => mayMail(address, allowedDomains));
    if (to.length === 0) return { kind: 'refused', reason: 'no recipient within MAIL_ALLOWED_DOMAINS' };
    try {
      await options.mailer.send(digestMail(digest, deliveryId, to));
      return { kind: 'sent' };
    } catch (error) {
      return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
    }
  };

  /**
   * One attempt, whatever it meets: a deliverer that throws (a runtime error, a mailer's bug) is
   * this delivery's `unreachable` outcome, retried like any other, never the run's failure. Only
   * the run's own deadline passing ends the run (it answers `complete: false`).
   */
  const attempt = async (delivery: DueDelivery, target: Target): Promise<AttemptOutcome> => {
    try {
      return await attemptUnguarded(delivery, target);
    } catch (error) {
      if (isDeadlineExceeded(error)) throw error;
      return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
    }
  };

  const attemptUnguarded = async (delivery: DueDelivery, target: Target): Promise<AttemptOutcome> => {
    if (target.kind === 'email') return mail(delivery.digest, delivery.deliveryId, target.to);
    const channel = await channelOf(target.channelId);
    if (!channel) return { kind: 'refused', reason: `channel ${target.channelId} was deleted` };
    if (channel.type === 'email') return mail(delivery.digest, delivery.deliveryId, channel.emails);
    const secret = await channels.secretOf(channel.id);
    if (!secret) return { kind: 'refused', reason: `channel ${channel.id} has no ${channel.type === 'webhook' ? 'signing secret' : 'credential'}` };
    if (channel.type === 'servicenow') {
      // several requests per alarm: the attempt ends (and is retried) well inside its claim's lease, so no other run takes it over meanwhile
      const within = Math.min(until - 250, Date.now() + CLAIM_LEASE_MS - WEBHOOK_TIMEOUT_MS);
      return deliverToServiceNow(delivery.digest, { ...channel, secret }, { until: within, allowLocal, timeoutMs: WEBHOOK_TIMEOUT_MS });
    }
    return postWebhook({
      url: channel.url,
      body: webhookBody(delivery.digest, channel.format, delivery.deliveryId, iso(Date.now())),
      deliveryId: delivery.deliveryId,
      secret,
      timeoutMs: timerMs(Math.min(WEBHOOK_TIMEOUT_MS, until - Date.now() - 250)),
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

  /**
   * Attempts due deliveries until none is due, the cap is spent or the budget runs low: first
   * `stored`, what this run just stored (the due index may not show it yet), then the index's.
   */
  const deliverDue = async (stored: readonly DueDelivery[] = []): Promise<boolean> => {
    for (const delivery of stored) {
      if (budget <= 0 || !inTime(MIN_ATTEMPT_MS)) return false;
      await attemptOne(delivery);
    }
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

  /** Makes the first attempt of a stored delivery now, if nobody made it yet. */
  const attemptStored = async (id: string): Promise<void> => {
    const stored = await deliveries.get(id);
    if (stored?.status === 'pending') await attemptOne(stored);
  };

  return {
    summary,
    inTime,
    /** The end of the current pass: `stopAt`, at most the deadline. */
    stopAt(at: number) {
      until = Math.min(at, options.deadline);
    },
    deliverDue,
    /** Stores one delivery unless one with its id was stored before (then false). */
    store: (draft: DeliveryDraft): Promise<boolean> => deliveries.createIfAbsent(draft, iso(Date.now())),
    attemptStored,
    /** Stores one delivery and attempts it at once (a channel test). */
    async sendNow(draft: DeliveryDraft): Promise<void> {
      await deliveries.createIfAbsent(draft, iso(Date.now()));
      await attemptStored(draft.id);
    },
  };
};
