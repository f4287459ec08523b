import { docRow, entity } from '#lib/store/entity';

export const CapEntity = /* @__PURE__ */ entity({
  type: 'Cap',
  key: (name: string) => ({ PK: 'CAP', SK: name }),
  fromItem: (item) => (item.members ?? {}) as Record<string, { at: number; until?: number }>,
});
dataModel: docRow(CapEntity, { section: 'Caps per stage', name: 'Cap roster', PK: '`CAP`', SK: '`watchers`, `silences`, `filterConfigs`',
  notes: '`members`: map of member id -> `{at, until?}` (epoch ms admitted; a silence\'s end)' });

import { Conflict } from '#lib/shared/errors';
import { collection } from '#lib/store/entity';
import { and, expr } from '#lib/store/expression';
import { chunked, NEW } from '#lib/store/table';
import { apart } from '#lib/store/transaction';

// Caps per stage: one roster item per capped collection, admission one conditional update, healed when full (docs/adr/0162).

type Entry = ReturnType<typeof CapEntity.fromItem>[string];
/** The members the base table holds now (strongly consistent), each with the epoch ms it stops counting at, if any. */
type Living = () => Promise<Map<string, number | undefined>>;

/** A member admitted this long ago whose record is missing is taken as never written (a route's timeout is 29 s). */
const SETTLED_MS = 60_000;
/** Members removed per UpdateItem (expressions are bounded at 4 KB). */
const REMOVALS_PER_WRITE = 100;

const entry = (at: number, until: number | undefined): Entry => ({ at, ...(until === undefined ? {} : { until }) });

/** The members of a collection that never stop counting: every record's id in partition `pk` (one consistent Query). */
export const members = (pk: string) => async (): Promise<Map<string, undefined>> =>
  new Map((await collection(pk).all({ project: ['id'], consistent: true })).map((item) => [String(item.id), undefined]));

/** The members of partition `pk` not yet ended: `ends` reads the epoch ms a record's `attribute` ends it at (undefined: never). */
export const endingMembers = (pk: string, attribute: string, ends: (value: unknown) => number | undefined): Living => async () => {
  const now = Date.now();
  const items = await collection(pk).all({ project: ['id', attribute], consistent: true });
  return new Map(items.map((item) => [String(item.id), ends(item[attribute])] as const).filter(([, until]) => (until ?? Infinity) > now));
};

/** The cap of collection `name`: its maximum read when needed, `full` what the 409 says when it is reached. */
export const capped = (name: string, max: () => number, full: (max: number) => string, living: Living) => {
  const tryAdmit = async (id: string, until: number | undefined): Promise<boolean> =>
    !!(await apart(() => CapEntity.update(
      name,
      expr('SET #members.#id = :entry', { entry: entry(Date.now(), until) }, { '#id': id }),
      expr('attribute_exists(#members) AND (attribute_exists(#members.#id) OR size(#members) < :max)', { max: max() }, { '#id': id }),
    )));

  const readRoster = () => CapEntity.find(name, { consistent: true });

  /** The roster of a collection that has none yet, from its records (a lost race with another first use is as good). */
  const createRoster = async (): Promise<void> => {
    const roster = Object.fromEntries([...(await living())].map(([id, until]) => [id, entry(0, until)]));
    await apart(() => CapEntity.put(name, { members: roster }, NEW));
  };

  /** Removes members (ids are attribute names: each its own placeholder); with an entry, only if unchanged since read (a member admitted again meanwhile stays). */
  const remove = async (gone: readonly (readonly [string, Entry?])[]): Promise<void> => {
    for (const chunk of chunked(gone, REMOVALS_PER_WRITE)) {
      const names = Object.fromEntries(chunk.map(([id], n) => [`#m${n}`, id]));
      const unchanged = chunk.map(([, e], n) => e && expr(`#members.#m${n}.#at = :a${n}`, { [`a${n}`]: e.at }, names));
      await apart(() => CapEntity.update(name, expr(`REMOVE ${chunk.map((_, n) => `#members.#m${n}`).join(', ')}`, {}, names), and(...unchanged) ?? 'attribute_exists(#members)'));
    }
  };

  /** Heals a full roster: removes members that stopped counting or whose record is gone. Answers whether any went. */
  const heal = async (roster: Record<string, Entry>): Promise<boolean> => {
    const now = Date.now();
    const expired = Object.entries(roster).filter(([, e]) => e.until !== undefined && e.until <= now);
    let gone = expired;
    if (Object.keys(roster).length - expired.length >= max()) {
      const alive = await living();
      gone = Object.entries(roster).filter(([id, e]) => (e.until !== undefined && e.until <= now) || (e.at < now - SETTLED_MS && !alive.has(id)));
    }
    if (gone.length === 0) return false;
    await remove(gone);
    return true;
  };

  /** Admits `id` (again, if a member), or 409 when the cap is reached; `until`: when it stops counting. */
  const admit = async (id: string, until?: number): Promise<void> => {
    for (let attempt = 0; attempt < 4; attempt++) {
      if (await tryAdmit(id, until)) return;
      const roster = await readRoster();
      if (!roster) await createRoster();
      else if (Object.keys(roster).length < max() || roster[id]) continue; // a member left meanwhile: try again
      else if (!(await heal(roster))) break;
    }
    throw new Conflict(full(max()));
  };

  /** Releases one member, best effort: a failed release is healed when the cap is reached. */
  const forget = (id: string): Promise<void> => remove([[id]]).catch(() => undefined);

  return {
    admit,
    forget,

    /** Admits `id`, then writes its record; a write that fails or throws gives the place back. */
    admitted: async <T>(id: string, until: number | undefined, write: () => Promise<T>): Promise<T> => {
      await admit(id, until);
      try {
        return await write();
      } catch (error) {
        await forget(id);
        throw error;
      }
    },

    /** The ids among `ids` that are not members yet (one consistent read; for upserts of many). */
    nonMembers: async (ids: readonly string[]): Promise<string[]> => {
      const roster = (await readRoster()) ?? {};
      return ids.filter((id) => !(id in roster));
    },

    /** Releases every member not in `keep` (after a keep-list delete; a failure is healed when the cap is reached). */
    retainOnly: async (keep: ReadonlySet<string>): Promise<void> => {
      const roster = await readRoster();
      if (roster) await remove(Object.keys(roster).filter((id) => !keep.has(id)).map((id) => [id]));
    },
  };
};
