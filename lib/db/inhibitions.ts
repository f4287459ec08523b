import type { Episode } from '#lib/notify/types';
import { INHIBITIONS, InhibitionEpisode } from '#lib/store/entities/notify';
import { collection } from '#lib/store/entity';
import { expr } from '#lib/store/expression';
import { NEW } from '#lib/store/table';

/*
 * Parent episodes (issue 28 item 2; docs/adr/0463): one item per inhibited watcher and room or
 * location whose parent condition holds, in one partition (few at a time), read whole by one
 * consistent Query, so nothing lags. Write order: the evaluator opens the episode before the first
 * alarm it marks suppressed; the notifier stores the announcement's deliveries, then `announced`;
 * on release it fixes `releasedAt` (once), stores the release's deliveries, unmarks the alarms,
 * then deletes the episode. Every step is conditioned on `since`, so a newer episode of the same
 * key is never touched by an older one's steps, and each step repeated stores nothing twice.
 */
const { fromItem } = InhibitionEpisode;
const ofEpisode = (since: string) => expr('#since = :since', { since });

/** Every open episode: one consistent Query. */
export const all = async (): Promise<Episode[]> => (await collection(INHIBITIONS).all({ consistent: true })).map(fromItem);

/** Opens the episode unless one of its key is open; answers the one now stored (the earlier wins a race). */
export const open = async (episode: Episode): Promise<Episode> => {
  if (await InhibitionEpisode.put(episode.key, { ...episode }, NEW)) return episode;
  return (await InhibitionEpisode.find(episode.key, { consistent: true })) ?? episode;
};

/** Its announcement's deliveries are stored. */
export const announced = async (episode: Episode): Promise<void> => {
  await InhibitionEpisode.update(episode.key, { set: { announced: true } }, ofEpisode(episode.since));
};

/** Fixes the release instant once (racing runs agree on the first); answers it, undefined when the episode is gone. */
export const releasing = async (episode: Episode, at: string): Promise<string | undefined> => {
  const item = await InhibitionEpisode.update(episode.key, { init: { releasedAt: at } }, ofEpisode(episode.since), 'ALL_NEW');
  return typeof item?.releasedAt === 'string' ? item.releasedAt : undefined;
};

/** The release is done: the episode goes. */
export const close = async (episode: Episode): Promise<void> => {
  await InhibitionEpisode.remove(episode.key, ofEpisode(episode.since));
};
