import { randomUUID } from 'node:crypto';
import { mapPage, type Page } from '#lib/db/pages';
import * as silences from '#lib/db/silences';
import { Invalid } from '#lib/errors';
import { historyExpiry } from './settings';
import { MATCHER_FIELDS, silenceStatus, silenceWindow, type Matchers, type Silence, type SilenceInput, type SilenceStatus } from './silences';

/** A silence as answered: also whether it is pending, active or expired now. */
export type SilenceAnswer = Silence & { status: SilenceStatus };

const answer = (silence: Silence, now: string): SilenceAnswer => ({ ...silence, status: silenceStatus(silence, now) });

/** Creates a silence (400 naming the field when its window or matchers are wrong); kept ALARM_HISTORY_DAYS after it ends. */
export const createSilence = async (input: SilenceInput, createdBy: string): Promise<SilenceAnswer> => {
  const now = new Date().toISOString();
  const window = silenceWindow(input, now);
  if ('problems' in window) throw new Invalid(window.problems[0]!.message, window.problems);
  const matchers: Matchers = Object.fromEntries(MATCHER_FIELDS.filter((f) => input.matchers[f] !== undefined).map((f) => [f, input.matchers[f]]));
  const silence: Silence = { id: randomUUID(), matchers, ...window, comment: input.comment, createdBy, createdAt: now };
  return answer(await silences.create(silence, historyExpiry(silence.endsAt)), now);
};

/** Silences answered per page when `all` asks for every kept one without a limit. */
export const DEFAULT_SILENCES_PAGE = 100;

/**
 * Active and future silences (a bare array: the cap SILENCES_MAX_ACTIVE bounds them), or one page
 * with `limit`/`cursor`. With `all` also the expired ones still kept: those grow with time, so
 * they are always answered a page at a time (`limit` default 100). Soonest end first.
 */
export const listSilences = async (query: { all?: string; limit?: string; cursor?: string }): Promise<SilenceAnswer[] | Page<SilenceAnswer>> => {
  const now = new Date().toISOString();
  const kept = query.all === 'true';
  if (!kept && query.limit === undefined && query.cursor === undefined) return (await silences.current(now)).map((s) => answer(s, now));
  return mapPage(await silences.page(kept, now, query.limit ? Number(query.limit) : DEFAULT_SILENCES_PAGE, query.cursor), (s) => answer(s, now));
};

export const getSilence = async (id: string): Promise<SilenceAnswer> => answer(await silences.get(id), new Date().toISOString());

/** Ends a silence now (kept, expired); ending an expired one changes nothing. */
export const endSilence = async (id: string): Promise<SilenceAnswer> => {
  const now = new Date().toISOString();
  return answer(await silences.end(id, now), now);
};
