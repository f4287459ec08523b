import { randomUUID } from 'node:crypto';
import { evaluationQueue } from '#lib/alarms/repository/evaluationQueue';
import * as watchers from '#lib/watchers/repository';
import { checkChannelIds, missingChannels, unknownChannels } from '#lib/notify/channelIds';
import { requireAllowedRecipients } from '#lib/notify/mail/pure/recipients';
import type { AccessScope } from '#lib/shared/access';
import { checkAndHoldInhibitedBy, checkInhibitedBy } from '#lib/alarms/inhibition/parents';
import { readWithin, requireConditionsWithin, requireReach } from './reach';
import { Invalid, type ErrorDetail } from '#lib/shared/errors';
import type { WatcherInput, WatcherRecord } from './types';

/**
 * What the schema cannot say about `escalation`: its steps' `afterMinutes` ascending, each step
 * telling someone, its addresses within the domains this stage mails (400 naming each field).
 */
/** Every channel an escalation step names exists: 400 naming the step's field otherwise. */
const checkEscalationChannels = async (input: Pick<WatcherInput, 'escalation'>): Promise<void> => {
  const steps = input.escalation ?? [];
  const missing = new Set(await missingChannels([...new Set(steps.flatMap((step) => step.channelIds ?? []))]));
  if (missing.size === 0) return;
  const details = steps.flatMap((step, i) =>
    (step.channelIds ?? []).filter((id) => missing.has(id)).map((id) => ({ field: `body.escalation[${i}].channelIds`, message: `body.escalation[${i}].channelIds: no channel ${id}` })),
  );
  throw new Invalid('unknown channel ids', details);
};

export const requireValidEscalation = (input: Pick<WatcherInput, 'escalation'>): void => {
  const steps = input.escalation ?? [];
  const details: ErrorDetail[] = [];
  steps.forEach((step, i) => {
    const field = `body.escalation[${i}]`;
    const before = steps[i - 1];
    if (before && step.afterMinutes <= before.afterMinutes) {
      details.push({ field: `${field}.afterMinutes`, message: `${field}.afterMinutes must be greater than body.escalation[${i - 1}].afterMinutes (${before.afterMinutes}): steps are ascending` });
    }
    if (!step.channelIds?.length && !step.emails?.length) details.push({ field, message: `${field} must name at least one of channelIds, emails` });
  });
  if (details.length > 0) throw new Invalid(`Invalid request: ${details.map((detail) => detail.message).join('; ')}`, details);
  steps.forEach((step, i) => requireAllowedRecipients(step.emails, `body.escalation[${i}].emails`));
};

/*
 * A watcher names notification channels by id, and a channel a watcher names cannot be deleted
 * (lib/notify/channels.ts). The watcher write marks each channel it names used (a version bump
 * conditioned on the channel existing) in the same transaction (lib/watchers/repository.ts): a delete that
 * read the channel before fails its condition (409), and a channel already deleted cancels the
 * whole write, answered 400 as if the channel had been missing from the start (docs/guide/rules/notify.md "A watcher never names a deleted channel, even in a race").
 */

/** A watcher write refused because channels it names are gone: 400 naming them. */
const channelsChecked = async <T>(write: Promise<T>): Promise<T> =>
  write.catch((error: unknown) => {
    throw error instanceof watchers.ChannelsGone ? unknownChannels(error.gone) : error;
  });

/**
 * POST /watcher: stores a new, active watcher and answers its id; 400 for unknown channel ids
 * or addresses outside MAIL_ALLOWED_DOMAINS. The watcher is queued for evaluation before it is
 * stored: a create that dies between the two leaves at most a queue entry of a watcher that does
 * not exist (harmless), never an active watcher nobody evaluates until the hourly full pass.
 */
export const createWatcher = async (input: WatcherInput, scope: AccessScope = []): Promise<string> => {
  requireConditionsWithin(scope, input);
  requireAllowedRecipients(input.emails, 'body.emails');
  requireValidEscalation(input);
  await checkChannelIds(input.channelIds);
  await checkEscalationChannels(input);
  await checkInhibitedBy(input.inhibitedBy, scope);
  // its id first: the watcher is queued before it is stored
  const id = randomUUID();
  await evaluationQueue.addWatcher(id); // its alarms follow at the evaluator's next tick
  await channelsChecked(watchers.create(input, id, scope));
  return id;
};

/**
 * PUT /watcher/{id}: replaces the rule (its scope stays); 404 unknown or outside the caller's
 * scope, 409 lost race, 400 unknown channel ids or addresses outside MAIL_ALLOWED_DOMAINS.
 */
export const updateWatcher = async (id: string, input: WatcherInput, scope: AccessScope = []): Promise<WatcherRecord> => {
  requireConditionsWithin(scope, input);
  await requireReach(id, scope);
  // queued first: a crash after the write still leaves its evaluation queued (an extra entry is harmless)
  await evaluationQueue.addWatcher(id);
  requireAllowedRecipients(input.emails, 'body.emails');
  requireValidEscalation(input);
  await checkChannelIds(input.channelIds);
  await checkEscalationChannels(input);
  // read before the chain of parents, so that the write holds only if nothing changed this watcher since (docs/guide/rules/alarms.md "A watcher's write holds the chain of parents it checked")
  const current = await readWithin(id, scope);
  await checkAndHoldInhibitedBy(input.inhibitedBy, scope, id);
  return channelsChecked(watchers.replace(current, input));
};

/** DELETE /watcher/{id}: 404 unknown or outside the caller's scope. */
export const removeWatcher = async (id: string, scope: AccessScope = []): Promise<void> => {
  await requireReach(id, scope);
  // queued first: a crash after the write still leaves its evaluation queued (an extra entry is harmless)
  await evaluationQueue.addWatcher(id);
  await watchers.remove(id);
};

/** PUT /watcher/{id}/status: switches it on or off; 404 unknown or outside the caller's scope. */
export const setWatcherActive = async (id: string, active: boolean, scope: AccessScope = []): Promise<WatcherRecord> => {
  await requireReach(id, scope);
  // queued first: a crash after the write still leaves its evaluation queued (an extra entry is harmless)
  await evaluationQueue.addWatcher(id);
  return watchers.setActive(id, active);
};
