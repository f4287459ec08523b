import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '#lib/shared/errors';
import { assertListable, namedChannels, normalize, type ConfigurationField, type Watcher, type WatcherInput, type WatcherRecord } from '#lib/watchers/types';
import { type AccessScopeEntry } from '#lib/shared/access';
import { caps } from '#lib/shared/caps';
import { accessScopeField } from '#lib/access';
import { WatcherEntity as Watchers, watcherFields, WATCHERS } from '#lib/watchers/entities';
import { collection, versioned, type Versioned } from '#lib/store/entity';
import { atVersion, patchOf, type Expr } from '#lib/store/expression';
import { listed } from '#lib/store/paging';
import { EXISTS, must, NEW, changedMeanwhile } from '#lib/store/table';
import { apart, transact } from '#lib/store/transaction';
import { markUsedAction } from '#lib/notify/repository/channels';
import { capped, members } from '#lib/store/caps';

// Watchers are few: they all live in one partition, so listing them is one Query.
const { fromItem } = Watchers;

export type VersionedWatcher = Versioned<WatcherRecord>;

const notFound = (id: string) => new NotFound(`Watcher ${id} not found`);
const changed = (id: string) => new Conflict(`Watcher ${id} was changed by another request; read it again and retry`);
const versions = versioned(Watchers, notFound, changed);

const putAt = (record: WatcherRecord, version: number, condition: Expr | string) => Watchers.put(record.id, watcherFields(record, version), condition);

/**
 * Writes a watcher and marks every channel it names used, in one transaction (docs/guide/rules/notify.md "A watcher never names a deleted channel, even in a race"): all
 * of it lands, or nothing does. `gone`: the named channels that no longer exist (nothing written);
 * `held` false: the watcher's own condition failed.
 */
const putNaming = async (record: WatcherRecord, version: number, condition: Expr | string, channelIds: readonly string[] = []): Promise<{ held: boolean; gone: string[] }> => {
  const named = [...new Set(channelIds)];
  if (named.length === 0) return { held: await putAt(record, version, condition), gone: [] };
  const outcome = await transact([{ put: Watchers.item(record.id, watcherFields(record, version)), condition }, ...named.map(markUsedAction)]);
  if (outcome.held) return { held: true, gone: [] };
  const gone = outcome.failed.filter((i) => i > 0).map((i) => named[i - 1]!);
  return { held: gone.length > 0 || !outcome.failed.includes(0), gone };
};

/** Channels a watcher write named that are gone: nothing was written (lib/watchers/write.ts answers 400). */
export class ChannelsGone extends Error {
  constructor(readonly gone: string[]) {
    super(`channels gone: ${gone.join(', ')}`);
  }
}

const landed = async (write: Promise<{ held: boolean; gone: string[] }>, fail: () => Error): Promise<void> => {
  const { held, gone } = await write;
  if (gone.length > 0) throw new ChannelsGone(gone);
  if (!held) throw fail();
};

/** At most `WATCHERS_MAX` watchers per stage (lib/store/caps.ts): a create past it is 409. */
const cap = capped('watchers', () => caps.watchers(), (max) => `This stage holds ${max} watchers, its maximum (WATCHERS_MAX); delete one first`, members(WATCHERS));

/** Stores a new active watcher and answers its id; 409 at the stage's maximum; `scope`: its creator's (docs/guide/rules/access.md "A watcher keeps its creator's scope, and the engine honours it in `targets`"). */
export const create = async (input: WatcherInput, id: string = randomUUID(), scope: readonly AccessScopeEntry[] = []): Promise<string> => {
  const now = new Date().toISOString();
  const record: WatcherRecord = { id, ...accessScopeField(scope), ...normalize(input), active: true, createdAt: now, updatedAt: now };
  assertListable(record);
  await cap.admitted(id, undefined, () => landed(putNaming(record, 1, NEW, namedChannels(input)), changedMeanwhile));
  return id;
};

// Strongly consistent: a channel delete must see every watcher written before it (lib/notify/channels.ts).
const every = listed(() => ({ pk: WATCHERS, consistent: true }), 'watcher/all', fromItem);
export const list = every.all;

/** GET /watcher/all: every watcher, or one page with `limit` / `cursor` (sealed for this list). */
export const listOrPage = every.listOrPage;
/** One page of the watchers `keep` accepts (a scoped caller's), with the cursors of `listOrPage`. */
export const page = every.page;

export const read = versions.read;

export const get = async (id: string): Promise<WatcherRecord> => (await read(id)).record;

/** Replaces the rule of a watcher read at `version` (id, `active`, `createdAt` kept); 409 when written since. */
export const replace = async (current: VersionedWatcher, input: WatcherInput): Promise<WatcherRecord> => {
  const { id } = current.record;
  const record: WatcherRecord = { ...current.record, ...normalize(input), updatedAt: new Date().toISOString() };
  assertListable(record);
  await landed(putNaming(record, current.version + 1, atVersion(current.version), namedChannels(input)), () => changed(id));
  return record;
};

/**
 * Bumps the version of a watcher read at `version`, changing nothing else; false when another
 * request wrote it since (or it is gone). A write that relies on what it read of a watcher
 * (lib/alarms/inhibition/parents.ts: the chain of parents) holds it so: a racing write of it then fails.
 */
export const holdAt = async (id: string, version: number): Promise<boolean> =>
  // a hold prepares the change of another watcher: its audit record rides on that change, not here
  !!(await apart(() => Watchers.update(id, { increment: { version: 1 } }, atVersion(version))));

/** PUT semantics: the whole rule is replaced; 404 for an unknown id, 409 on a lost race. */
export const update = async (id: string, input: WatcherInput): Promise<WatcherRecord> => replace(await read(id), input);

/** Switches a watcher on or off; one atomic write that also bumps the version. */
export const setActive = async (id: string, active: boolean): Promise<WatcherRecord> =>
  fromItem(await must(Watchers.update(id, patchOf({ active }), EXISTS, 'ALL_NEW'), () => notFound(id)));

export const remove = async (id: string): Promise<void> => {
  await must(Watchers.remove(id, EXISTS), () => notFound(id));
  await cap.forget(id);
};

/** One alarm-configuration field of every watcher (one Query, only that attribute read). */
export const fieldValues = async (field: ConfigurationField): Promise<unknown[]> =>
  (await collection(WATCHERS).all({ project: [`watcher.${field}`] })).map((item) => (item.watcher as Partial<Watcher> | undefined)?.[field]);
