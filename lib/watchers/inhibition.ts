import * as watchers from '#lib/db/watchers';
import { Invalid, NotFound } from '#lib/errors';
import type { AccessScope } from '#lib/shared/access';
import { watcherWithinScope } from './scope';
import type { InhibitedBy, WatcherRecord } from './types';

const FIELD = 'body.inhibitedBy.watcherId';

/** The longest chain of parent watchers followed when looking for a cycle. */
const MAX_CHAIN = 20;

const refused = (message: string): Invalid => new Invalid(message, [{ field: FIELD, message: `${FIELD}: ${message}` }]);

const stored = async (id: string): Promise<WatcherRecord | undefined> => {
  try {
    return (await watchers.read(id)).record;
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
};

/**
 * A watcher inhibited by another watcher (issue 28 item 2; docs/adr/0461): that watcher must
 * exist within the caller's scope, be another one, and not lead back to this one through its own
 * parents (two watchers suppressing each other would never tell anything). 400 naming the field.
 * `self` is the watcher being written (absent on create: its id is new, so no chain reaches it).
 */
export const checkInhibitedBy = async (parent: InhibitedBy | undefined, scope: AccessScope, self?: string): Promise<void> => {
  if (parent?.condition !== 'watcher') return;
  if (parent.watcherId === self) throw refused('a watcher cannot be inhibited by itself');
  const first = await stored(parent.watcherId);
  if (!first || !watcherWithinScope(first, scope)) throw refused(`no watcher ${parent.watcherId}`);
  if (self === undefined) return;
  let next = first.inhibitedBy;
  for (let step = 0; step < MAX_CHAIN && next?.condition === 'watcher'; step++) {
    if (next.watcherId === self) throw refused(`watcher ${parent.watcherId} is itself inhibited by this watcher (a cycle)`);
    next = (await stored(next.watcherId))?.inhibitedBy;
  }
};
