import { randomUUID } from 'node:crypto';
import { mapPage, type Page } from '#lib/store/paging';
import * as silences from '#lib/alarms/repository/silences';
import { Invalid, NotFound } from '#lib/shared/errors';
import { isUnscoped, type AccessScope } from '#lib/shared/access';
import { historyExpiry } from '#lib/shared/retention';
import { MATCHER_FIELDS, silenceStatus, silenceWindow, silenceWithinAccessScope, type Matchers, type Silence, type SilenceInput, type SilenceStatus } from './pure/silences';

/** A silence as answered: also whether it is pending, active or expired now. */
export type SilenceAnswer = Silence & { status: SilenceStatus };

const answer = (silence: Silence, now: string): SilenceAnswer => ({ ...silence, status: silenceStatus(silence, now) });

/*
 * A scoped principal (DESIGN §5) silences, sees and ends only silences within its scope
 * (lib/alarms/pure/silences.ts `silenceWithinAccessScope`); any other is 404, as if unknown. The unscoped
 * see every silence, exactly as before scopes.
 */

/** Creates a silence (400 naming the field when its window or matchers are wrong; 404 outside the scope); kept ALARM_HISTORY_DAYS after it ends. */
export const createSilence = async (input: SilenceInput, createdBy: string, scope: AccessScope = []): Promise<SilenceAnswer> => {
  const now = new Date().toISOString();
  const window = silenceWindow(input, now);
  if ('problems' in window) throw new Invalid(window.problems[0]!.message, window.problems);
  const matchers: Matchers = Object.fromEntries(MATCHER_FIELDS.filter((f) => input.matchers[f] !== undefined).map((f) => [f, input.matchers[f]]));
  if (!silenceWithinAccessScope({ matchers }, scope)) {
    throw new NotFound('No place within your scope is named by body.matchers: name a region of your scope, and one of its locations where your scope holds only locations of that region', {
      details: [{ field: 'body.matchers', message: 'body.matchers must pin a region (and a location) within your scope' }],
    });
  }
  const silence: Silence = { id: randomUUID(), matchers, ...window, comment: input.comment, createdBy, createdAt: now };
  return answer(await silences.create(silence, historyExpiry(silence.endsAt)), now);
};

/** Silences answered per page when `all` asks for every kept one without a limit. */
const DEFAULT_SILENCES_PAGE = 100;

/**
 * Active and future silences (a bare array: the cap SILENCES_MAX_ACTIVE bounds them), or one page
 * with `limit`/`cursor`. With `all` also the expired ones still kept: those grow with time, so
 * they are always answered a page at a time (`limit` default 100). Soonest end first. A scoped
 * caller gets those within its scope (its pages may be short).
 */
export const listSilences = async (query: { all?: string; limit?: string; cursor?: string }, scope: AccessScope = []): Promise<SilenceAnswer[] | Page<SilenceAnswer>> => {
  const now = new Date().toISOString();
  const kept = query.all === 'true';
  const within = (silence: Silence) => silenceWithinAccessScope(silence, scope);
  if (!kept && query.limit === undefined && query.cursor === undefined) return (await silences.current(now)).filter(within).map((s) => answer(s, now));
  const limit = query.limit ? Number(query.limit) : DEFAULT_SILENCES_PAGE;
  const page = await silences.page(kept, now, limit, query.cursor, isUnscoped(scope) ? undefined : within);
  return mapPage(page, (s) => answer(s, now));
};

/** One silence; 404 unknown or outside the scope. */
const getWithin = async (id: string, scope: AccessScope): Promise<Silence> => {
  const silence = await silences.get(id);
  if (!silenceWithinAccessScope(silence, scope)) throw new NotFound(`Silence ${id} not found`);
  return silence;
};

export const getSilence = async (id: string, scope: AccessScope = []): Promise<SilenceAnswer> => answer(await getWithin(id, scope), new Date().toISOString());

/** Ends a silence now (kept, expired); ending an expired one changes nothing; 404 unknown or outside the scope. */
export const endSilence = async (id: string, scope: AccessScope = []): Promise<SilenceAnswer> => {
  if (!isUnscoped(scope)) await getWithin(id, scope); // a silence's matchers never change: the check stands for the write
  const now = new Date().toISOString();
  return answer(await silences.end(id, now), now);
};
