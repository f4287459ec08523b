import { Conflict } from '#lib/errors';
import { Cap } from '#lib/store/entities/config';
import { and, expr } from '#lib/store/expression';
import type { Query } from '#lib/store/query';
import { chunked, NEW, type Item } from '#lib/store/table';

// Caps per stage: one roster item per capped collection, admission one conditional update, healed when full (docs/adr/0162).

export interface CapRules {
  name: string;
  max: number;
  /** What the 409 says when the cap is reached. */
  full: (max: number) => string;
  /** The members the base table holds now (strongly consistent), each with the epoch ms it stops counting at, if any. */
  living: () => Promise<Map<string, number | undefined>>;
}

type Entry = ReturnType<typeof Cap.fromItem>[string];

/** A member admitted this long ago whose record is missing is taken as never written (a route's timeout is 29 s). */
const SETTLED_MS = 60_000;
/** Members removed per UpdateItem (expressions are bounded at 4 KB). */
const REMOVALS_PER_WRITE = 100;

const entry = (at: number, until: number | undefined): Entry => ({ at, ...(until === undefined ? {} : { until }) });

const tryAdmit = async (rules: CapRules, id: string, until: number | undefined): Promise<boolean> =>
  !!(await Cap.update(
    rules.name,
    expr('SET #members.#id = :entry', { entry: entry(Date.now(), until) }, { '#id': id }),
    expr('attribute_exists(#members) AND (attribute_exists(#members.#id) OR size(#members) < :max)', { max: rules.max }, { '#id': id }),
  ));

const readRoster = (name: string) => Cap.find(name, { consistent: true });

/** The roster of a collection that has none yet, from its records (a lost race with another first use is as good). */
const createRoster = async (rules: CapRules): Promise<void> => {
  const members = Object.fromEntries([...(await rules.living())].map(([id, until]) => [id, entry(0, until)]));
  await Cap.put(rules.name, { members }, NEW);
};

/** Removes members (ids are attribute names: each its own placeholder); with an entry, only if unchanged since read (a member admitted again meanwhile stays). */
const remove = async (name: string, gone: readonly (readonly [string, Entry?])[]): Promise<void> => {
  for (const chunk of chunked(gone, REMOVALS_PER_WRITE)) {
    const names = Object.fromEntries(chunk.map(([id], n) => [`#m${n}`, id]));
    const unchanged = chunk.map(([, e], n) => e && expr(`#members.#m${n}.#at = :a${n}`, { [`a${n}`]: e.at }, names));
    await Cap.update(name, expr(`REMOVE ${chunk.map((_, n) => `#members.#m${n}`).join(', ')}`, {}, names), and(...unchanged) ?? 'attribute_exists(#members)');
  }
};

/** Heals a full roster: removes members that stopped counting or whose record is gone. Answers whether any went. */
const heal = async (rules: CapRules, members: Record<string, Entry>): Promise<boolean> => {
  const now = Date.now();
  const expired = Object.entries(members).filter(([, e]) => e.until !== undefined && e.until <= now);
  let gone = expired;
  if (Object.keys(members).length - expired.length >= rules.max) {
    const living = await rules.living();
    gone = Object.entries(members).filter(([id, e]) => (e.until !== undefined && e.until <= now) || (e.at < now - SETTLED_MS && !living.has(id)));
  }
  if (gone.length === 0) return false;
  await remove(rules.name, gone);
  return true;
};

/** Admits `id` (again, if a member), or 409 when the cap is reached; `until`: when it stops counting. */
export const admit = async (rules: CapRules, id: string, until?: number): Promise<void> => {
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await tryAdmit(rules, id, until)) return;
    const members = await readRoster(rules.name);
    if (!members) await createRoster(rules);
    else if (Object.keys(members).length < rules.max || members[id]) continue; // a member left meanwhile: try again
    else if (!(await heal(rules, members))) break;
  }
  throw new Conflict(rules.full(rules.max));
};

/** The ids among `ids` that are not members yet (one consistent read; for upserts of many). */
export const nonMembers = async (name: string, ids: readonly string[]): Promise<string[]> => {
  const members = (await readRoster(name)) ?? {};
  return ids.filter((id) => !(id in members));
};

/** Releases members whose records were deleted or ended (a failure is healed when the cap is reached). */
export const release = (name: string, ids: readonly string[]): Promise<void> => remove(name, ids.map((id) => [id]));

/** Releases every member not in `keep` (after a keep-list delete). */
export const retainOnly = async (name: string, keep: ReadonlySet<string>): Promise<void> => {
  const members = await readRoster(name);
  if (members) await release(name, Object.keys(members).filter((id) => !keep.has(id)));
};

/** Releases one member, best effort: a failed release is healed when the cap is reached. */
export const forget = (name: string, id: string): Promise<void> => release(name, [id]).catch(() => undefined);

/** Admits `id`, then writes its record; a write that fails or throws gives the place back. */
export const admitted = async <T>(rules: CapRules, id: string, until: number | undefined, write: () => Promise<T>): Promise<T> => {
  await admit(rules, id, until);
  try {
    return await write();
  } catch (error) {
    await forget(rules.name, id);
    throw error;
  }
};

/** The rules of a capped collection, its maximum read when needed. */
export const capRules = (name: string, max: () => number, full: CapRules['full'], living: CapRules['living']): CapRules => ({
  name,
  get max() {
    return max();
  },
  full,
  living,
});

/** The members of a collection that never stop counting: every record's id (one consistent Query). */
export const members = async (records: { all: (q: Omit<Query, 'pk'>) => Promise<Item[]> }): Promise<Map<string, undefined>> =>
  new Map((await records.all({ project: ['id'], consistent: true })).map((item) => [String(item.id), undefined]));
