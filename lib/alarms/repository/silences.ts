import type { Silence } from '#lib/alarms/pure/silences';
import { NotFound } from '#lib/shared/errors';
import { caps } from '#lib/shared/caps';
import { silenceEndSk, SilenceEntity as Silences, SILENCES, SILENCES_BY_END } from '#lib/alarms/entities';
import { versioned } from '#lib/store/entity';
import { expr } from '#lib/store/expression';
import { readPage, type Page } from '#lib/store/paging';
import { lastKeyOf, queryAll, type Query } from '#lib/store/query';
import { changedMeanwhile, must, NEW, nowSeconds } from '#lib/store/table';
import { capped, endingMembers } from '#lib/store/caps';

// Silences: one partition, GSI1 sorted by endsAt for active and future (docs/guide/rules/alarms.md).
const { fromItem } = Silences;
const stored = versioned(Silences, (id) => new NotFound(`Silence ${id} not found`));

/** At most `SILENCES_MAX_ACTIVE` silences not yet ended (pending or active) per stage: a create past it is 409. */
const cap = capped(
  'silences',
  () => caps.activeSilences(),
  (max) => `This stage holds ${max} pending or active silences, its maximum (SILENCES_MAX_ACTIVE); end one first (DELETE /silences/{id})`,
  endingMembers(SILENCES, 'endsAt', (endsAt) => Date.parse(String(endsAt))),
);

/** Stores a new silence; 409 when the stage holds its maximum of silences not yet ended. */
export const create = async (silence: Silence, expiresAt: number): Promise<Silence> => {
  const fields = { GSI1PK: SILENCES_BY_END, GSI1SK: silenceEndSk(silence), ...silence, expiresAt };
  await cap.admitted(silence.id, Date.parse(silence.endsAt), () => must(Silences.put(silence.id, fields, NEW), changedMeanwhile));
  return silence;
};

/** One silence (any status); 404 when unknown or past its retention. */
export const get = async (id: string): Promise<Silence> => (await stored.read(id)).record;

const currentQuery = (now: string): Query => ({ index: 'GSI1', pk: SILENCES_BY_END, sk: expr('#sk > :now', { now: lastKeyOf(now) }) });
const keptQuery = (): Query => ({ index: 'GSI1', pk: SILENCES_BY_END, filter: expr('#expiresAt > :now', { now: nowSeconds() }) });
const identity = (kept: boolean) => `silences?all=${kept}`;

/** Silences that have not ended at `now` (active and future), soonest end first. */
export const current = async (now: string): Promise<Silence[]> => (await queryAll(currentQuery(now))).map(fromItem);

/** Every kept silence, expired ones included, soonest end first. */
export const all = async (): Promise<Silence[]> => (await queryAll(keptQuery())).map(fromItem);

/** One page of the current silences (`kept`: every kept one), soonest end first; `keep`: a scoped caller's. */
export const page = async (kept: boolean, now: string, limit: number, cursor?: string, keep?: (silence: Silence) => boolean): Promise<Page<Silence>> => {
  const query = kept ? keptQuery() : currentQuery(now);
  return readPage(query, identity(kept), fromItem, limit, cursor, keep);
};

/** Ends a silence at `now` (an ended one is answered as is); it stays until its retention ends. */
export const end = async (id: string, now: string): Promise<Silence> => {
  const current = await get(id);
  if (Date.parse(current.endsAt) <= Date.parse(now)) return current;
  const startsAt = Date.parse(current.startsAt) > Date.parse(now) ? now : current.startsAt;
  const change = { set: { endsAt: now, startsAt, endedAt: now, GSI1SK: silenceEndSk({ endsAt: now, id }) } };
  const ended = await Silences.update(id, change, expr('#endsAt = :was', { was: current.endsAt }), 'ALL_NEW');
  // ended by a concurrent DELETE: answer it as that one left it
  if (!ended) return get(id);
  await cap.forget(id); // no longer counted; a failed release lapses at its old end anyway
  return fromItem(ended);
};
