import { PollCountsEntity, POLL_COUNTS } from '#lib/inventory/entities';
import { collection } from '#lib/store/entity';

// Status polls' counters per provider (GET /providers): one UpdateItem per poll, ADD counters.

export interface PollRecord {
  at: string;
  requests: number;
  changes: number;
  /** What failed, already sanitised (never a token). */
  error?: string;
}

/** Adds one poll of `vendor` to its counters. */
export const record = async (vendor: string, poll: PollRecord): Promise<void> => {
  const last = { lastPollAt: poll.at, lastRequests: poll.requests };
  await PollCountsEntity.update(vendor, {
    add: { polls: 1, failed: poll.error === undefined ? 0 : 1, requests: poll.requests, changes: poll.changes },
    ...(poll.error === undefined ? { set: last, remove: ['lastError'] } : { set: { ...last, lastError: poll.error } }),
  });
};

/** Every provider's poll counters. */
export const counts = async () => (await collection(POLL_COUNTS).all()).map(PollCountsEntity.fromItem);
