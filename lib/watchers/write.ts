import { randomUUID } from 'node:crypto';
import * as channels from '#lib/db/channels';
import { evaluationQueue } from '#lib/db/evaluationQueue';
import * as watchers from '#lib/db/watchers';
import { NotFound } from '#lib/errors';
import { checkChannelIds, unknownChannels } from '#lib/notify/channelIds';
import { requireAllowedRecipients } from '#lib/notify/pure/recipients';
import type { AccessScope } from '#lib/shared/access';
import { checkAndHoldInhibitedBy, checkInhibitedBy } from './inhibition';
import { readWithin, requireConditionsWithin, requireReach } from './reach';
import type { WatcherInput, WatcherRecord } from './types';

/*
 * A watcher names notification channels by id, and a channel a watcher names cannot be deleted
 * (lib/notify/channels.ts). Without transactions the two checks race: a watcher written right
 * after a channel delete listed the watchers would name a deleted channel. So a watcher write
 * first lands, then marks each channel it names used (a conditional version bump): a delete that
 * read the channel before the mark fails its condition (409), and a channel already deleted makes
 * the mark fail, which undoes the watcher write and answers 400, as if the channel had been
 * missing from the start. Either way no stored watcher names a deleted channel.
 */

/** The ids of those channels that are gone, after marking every other one used. */
const markUsed = async (ids: readonly string[] | undefined): Promise<string[]> => {
  const marked = await Promise.all((ids ?? []).map(async (id) => ((await channels.markUsed(id)) ? undefined : id)));
  return marked.filter((id): id is string => id !== undefined);
};

/**
 * POST /watcher: stores a new, active watcher and answers its id; 400 for unknown channel ids
 * or addresses outside MAIL_ALLOWED_DOMAINS. The watcher is queued for evaluation before it is
 * stored: a create that dies between the two leaves at most a queue entry of a watcher that does
 * not exist (harmless), never an active watcher nobody evaluates until the hourly full pass.
 */
export const createWatcher = async (input: WatcherInput, scope: AccessScope = []): Promise<string> => {
  requireConditionsWithin(scope, input);
  requireAllowedRecipients(input.emails, 'body.emails');
  await checkChannelIds(input.channelIds);
  await checkInhibitedBy(input.inhibitedBy, scope);
  // its id first: the watcher is queued before it is stored
  const id = randomUUID();
  await evaluationQueue.addWatcher(id); // its alarms follow at the evaluator's next tick
  await watchers.create(input, id, scope);
  const gone = await markUsed(input.channelIds);
  if (gone.length > 0) {
    await watchers.remove(id).catch((error: unknown) => {
      if (!(error instanceof NotFound)) throw error; // already gone is as good
    });
    throw unknownChannels(gone);
  }
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
  await checkChannelIds(input.channelIds);
  // read before the chain of parents, so that the write holds only if nothing changed this watcher since (docs/adr/0541)
  const current = await readWithin(id, scope);
  await checkAndHoldInhibitedBy(input.inhibitedBy, scope, id);
  const updated = await watchers.replace(current, input);
  const gone = await markUsed(input.channelIds);
  if (gone.length > 0) {
    await watchers.restore(current);
    throw unknownChannels(gone);
  }
  return updated;
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
