import * as watchers from '#lib/watchers/repository';
import { Conflict, Invalid, NotFound } from '#lib/shared/errors';
import type { AccessScope } from '#lib/shared/access';
import { watcherWithinAccessScope } from '#lib/watchers/scope';
import type { InhibitedBy } from '#lib/watchers/types';

const FIELD = 'body.inhibitedBy.watcherId';

const refused = (message: string): Invalid => new Invalid(message, [{ field: FIELD, message: `${FIELD}: ${message}` }]);

const stored = async (id: string): Promise<watchers.VersionedWatcher | undefined> => {
  try {
    return await watchers.read(id);
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
};

/**
 * A watcher inhibited by another watcher (docs/guide/rules/alarms.md "A watcher declares its parent condition as `inhibitedBy`, checked when it is written"): that watcher must
 * exist within the caller's scope, be another one, and not lead back to this one through its own
 * parents (two watchers suppressing each other would never tell anything). 400 naming the field.
 * `self` is the watcher being written (absent on create: its id is new, so no chain reaches it).
 * The whole chain is followed, to its end or to a watcher seen before (a cycle not through this
 * one, which the engine ignores: docs/guide/rules/alarms.md "A cycle of parent watchers suppresses nothing"): one read per parent, at most the stage's
 * watchers. Answers the chain as read, each at its version, for `checkAndHoldInhibitedBy`.
 */
export const checkInhibitedBy = async (parent: InhibitedBy | undefined, scope: AccessScope, self?: string): Promise<watchers.VersionedWatcher[]> => {
  if (parent?.condition !== 'watcher') return [];
  if (parent.watcherId === self) throw refused('a watcher cannot be inhibited by itself');
  const first = await stored(parent.watcherId);
  if (!first || !watcherWithinAccessScope(first.record, scope)) throw refused(`no watcher ${parent.watcherId}`);
  if (self === undefined) return [first];
  const chain = [first];
  const seen = new Set([first.record.id]);
  for (let next = first.record.inhibitedBy; next?.condition === 'watcher' && !seen.has(next.watcherId); ) {
    if (next.watcherId === self) throw refused(`watcher ${parent.watcherId} is itself inhibited by this watcher (a cycle)`);
    const link = await stored(next.watcherId);
    if (!link) break;
    chain.push(link);
    seen.add(link.record.id);
    next = link.record.inhibitedBy;
  }
  return chain;
};

/** How many times a check is read again when a parent changed between the check and its hold. */
const HOLD_ATTEMPTS = 3;

/**
 * Checks a watcher's parent (`checkInhibitedBy`) and holds the chain it read until the watcher's
 * own write (docs/guide/rules/alarms.md "A watcher's write holds the chain of parents it checked"): each parent's version is bumped on condition that it is still the one
 * read. A parent written since the check (a racing PUT that may close a cycle) makes the check run
 * again, and 409 after HOLD_ATTEMPTS; a racing PUT that read one of these parents before the bump
 * fails its own conditional write. The caller writes the watcher on condition of the version it read
 * before calling this: of two PUTs that would close a cycle, at most one lands. Single-item
 * conditional writes, no transaction.
 */
export const checkAndHoldInhibitedBy = async (parent: InhibitedBy | undefined, scope: AccessScope, self: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    const chain = await checkInhibitedBy(parent, scope, self);
    let lost: string | undefined;
    for (const link of chain) {
      if (!(await watchers.holdAt(link.record.id, link.version))) {
        lost = link.record.id;
        break;
      }
    }
    if (lost === undefined) return;
    if (attempt >= HOLD_ATTEMPTS) throw new Conflict(`Watcher ${lost}, a parent of this one, was changed by another request meanwhile; read it again and retry`);
  }
};
