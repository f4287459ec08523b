import * as channels from '#lib/notify/repository/channels';
import { Invalid } from '#lib/shared/errors';

// Apart from lib/notify/channels.ts so that the watcher functions do not bundle the notifier.

/** The 400 of a watcher naming channels that do not exist. */
export const unknownChannels = (ids: readonly string[]): Invalid =>
  new Invalid('unknown channel ids', ids.map((id) => ({ field: 'body.channelIds', message: `body.channelIds: no channel ${id}` })));

/** The ids among `ids` that name no stored channel. */
export const missingChannels = async (ids: readonly string[]): Promise<string[]> => {
  if (ids.length === 0) return [];
  const known = new Set((await channels.list()).map((c) => c.id));
  return ids.filter((id) => !known.has(id));
};

/** Every id must name a stored channel (watcher create and update); 400 naming those that do not. */
export const checkChannelIds = async (ids: readonly string[] | undefined): Promise<void> => {
  if (!ids?.length) return;
  const known = new Set((await channels.list()).map((c) => c.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw unknownChannels(missing);
};
