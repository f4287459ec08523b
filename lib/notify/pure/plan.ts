import { buildDigest, stableId } from './digest';
import type { Audience, DeliveryDraft, Digest, Notice, NotifiedAlarm, NotifiedWatcher, Target } from '../types';

const targetKey = (target: Target) => (target.kind === 'email' ? 'email' : `channel:${target.channelId}`);

/** A delivery's id: fixed by its digest and target, so re-planning after a crash stores nothing twice. */
export const deliveryId = (digest: Pick<Digest, 'id'>, target: Target): string => stableId('delivery', digest.id, targetKey(target));

/** The watcher's own addresses (when it sends e-mail) and each of its channels, once. */
export const targetsOf = (audience: Audience): Target[] => [
  ...(audience.sendEmail && audience.emails.length > 0 ? [{ kind: 'email' as const, to: [...audience.emails] }] : []),
  ...[...new Set(audience.channelIds)].map((channelId) => ({ kind: 'channel' as const, channelId })),
];

/** Whether a silence covers an alarm: its deliveries are stored as suppressed, so the log shows what was held back. */
type SilencedBy = (alarm: NotifiedAlarm) => boolean;

/** One digest to each target; suppressed where silences cover all of its alarms. */
export const draftsFor = (
  input: { type: Digest['type']; at: string; watcher: NotifiedWatcher; alarms: readonly NotifiedAlarm[]; audience: Audience; carrying?: string; parent?: string; step?: number },
  silenced: SilencedBy = () => false,
): DeliveryDraft[] => {
  const told = input.alarms.filter((alarm) => !silenced(alarm));
  const digest = buildDigest({
    type: input.type,
    at: input.at,
    watcher: input.watcher,
    alarms: told.length > 0 ? told : input.alarms,
    ...(input.carrying === undefined ? {} : { carrying: input.carrying }),
    ...(input.parent === undefined ? {} : { parent: input.parent }),
    ...(input.step === undefined ? {} : { step: input.step }),
  });
  const status = told.length > 0 ? 'pending' : 'suppressed';
  return targetsOf(input.audience).map((target) => ({ id: deliveryId(digest, target), digest, target, status }));
};

/**
 * Digests of pending notices, so a burst of transitions is one message rather than many: one per watcher, transition type and run,
 * to each of the watcher's targets; at most one per watcher per run per channel. A digest's id
 * (and its deliveries') is fixed by its group and the notices it carries, so planning the same
 * notices again stores nothing twice, and a notice of the run that reached the notifier late
 * (the notice index lags: DESIGN §3) makes a digest of its own rather than being dropped as if already told. Alarms whose notice was silenced are left out;
 * a digest of silenced alarms only is stored as suppressed. Pure.
 */
export const planDigests = (notices: readonly Notice[]): DeliveryDraft[] => {
  const groups = new Map<string, Notice[]>();
  for (const notice of notices) {
    const key = JSON.stringify([notice.watcher.id, notice.type, notice.at]);
    groups.set(key, [...(groups.get(key) ?? []), notice]);
  }
  return [...groups.values()].flatMap((group) => {
    const last = group[group.length - 1]!;
    const silenced = new Set(group.filter((n) => n.silenced).map((n) => n.alarm.id));
    const carrying = stableId(...[...new Set(group.map((n) => n.id))].sort());
    return draftsFor(
      { type: last.type, at: last.at, watcher: last.watcher, alarms: group.map((n) => n.alarm), audience: last.audience, carrying },
      (alarm) => silenced.has(alarm.id),
    );
  });
};

/** The repeat slot of a time: repeat digests of one watcher are at most one per slot. */
export const repeatSlot = (now: number, intervalSeconds: number): number => Math.floor(now / (intervalSeconds * 1000));

/**
 * Alarms a repeat digest re-notifies, so an alarm nobody handles is not forgotten: firing ones (the caller leaves out
 * acknowledged alarms) raised at least one interval ago, so a fresh alarm is not repeated
 * right after its first digest.
 */
export const dueForRepeat = (firing: readonly NotifiedAlarm[], now: number, intervalSeconds: number): NotifiedAlarm[] =>
  firing.filter((alarm) => Date.parse(alarm.raisedAt) <= now - intervalSeconds * 1000);
