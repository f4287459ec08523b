import { INHIBITIONS, InhibitionEpisodeEntity } from './entities';
import type { Episode } from './types';
import { collection } from '#lib/store/entity';
import { expr } from '#lib/store/expression';
import { NEW } from '#lib/store/table';

/*
 * Parent episodes (docs/guide/rules/alarms.md "A parent episode is announced once and released once, from a marker per episode"), read whole by one consistent Query. Write order: opened before the first alarm marked
 * suppressed; `announced` after the announcement's deliveries; on release `releasedAt` (once), its deliveries, the alarms
 * unmarked, then deleted. Each step holds only for its `since` (an older episode's never touch a newer one) and stores nothing twice.
 */
const ofEpisode = (since: string) => expr('#since = :since', { since });

export const all = async (): Promise<Episode[]> => (await collection(INHIBITIONS).all({ consistent: true })).map(InhibitionEpisodeEntity.fromItem);

/** Opens the episode unless one of its key is open; answers the one now stored (the earlier wins a race). */
export const open = async (episode: Episode): Promise<Episode> => {
  if (await InhibitionEpisodeEntity.put(episode.key, { ...episode }, NEW)) return episode;
  return (await InhibitionEpisodeEntity.find(episode.key, { consistent: true })) ?? episode;
};

export const announced = async (episode: Episode): Promise<void> => {
  await InhibitionEpisodeEntity.update(episode.key, { set: { announced: true } }, ofEpisode(episode.since));
};

/** Fixes the release instant once (racing runs agree on the first); answers it, undefined when the episode is gone. */
export const releasing = async (episode: Episode, at: string): Promise<string | undefined> => {
  const item = await InhibitionEpisodeEntity.update(episode.key, { init: { releasedAt: at } }, ofEpisode(episode.since), 'ALL_NEW');
  return typeof item?.releasedAt === 'string' ? item.releasedAt : undefined;
};

export const close = async (episode: Episode): Promise<void> => {
  await InhibitionEpisodeEntity.remove(episode.key, ofEpisode(episode.since));
};
