/** Silences (docs/guide/rules/alarms.md): invalid input is 400. */
import { MAX_SILENCE_DAYS } from '#lib/alarms/pure/silences';
import { dateTime, error, listOrPage, MULTI_LINE, name, ok, oneOfValues, page, recordRoutesOf, routesOf, strict, Type, uuidParam } from './shared';
import { watcherId } from './watchers';

const silenceId = uuidParam('a silence id (a UUID)');
const path = { id: silenceId };
/** Why a silence or a maintenance window holds alarms back. */
export const comment = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: MULTI_LINE,
  description: 'why: 1 to 2048 characters; no control characters other than tab and line breaks',
});

/** What a silence matches; a maintenance window matches these and a vendor. */
export const matcherFields = {
  region: Type.Optional(name()),
  location: Type.Optional(name()),
  room: Type.Optional(name()),
  devicesn: Type.Optional(name()),
  watcherId: Type.Optional(watcherId),
};
const matchers = strict(matcherFields, {
  minProperties: 1,
  description: 'at least one of region, location, room, devicesn, watcherId; an alarm matches when every one given equals its own',
});

const silence = Type.Object({
  id: Type.String(),
  matchers: Type.Object(matcherFields),
  startsAt: dateTime,
  endsAt: dateTime,
  comment: Type.String(),
  createdBy: Type.String({ description: 'the user of the bearer token sent, else "api-key"' }),
  createdAt: dateTime,
  endedAt: Type.Optional(dateTime),
  status: oneOfValues(['pending', 'active', 'expired'] as const),
});
const invalid = error('Invalid input, each offending field named');
const unknown = error('No silence with that id (or none within the caller\'s scope)');

/** 404 of a create whose matchers leave the caller's scope (silences, maintenance windows). */
export const matchersOutsideScope = error('A scoped caller\'s matchers pin no region (and location, where its scope holds only locations of that region) within its scope');

const api = routesOf({ permission: 'silences:write', invalidStatus: 400 });
const onSilence = recordRoutesOf({ permission: 'silences:write', invalidStatus: 400 }, { path, invalid, unknown });

export const routes = {
  create: api(
    'POST',
    'silences',
    `Silence matching alarms' notifications from startsAt (default now) to endsAt (at most ${MAX_SILENCE_DAYS} days later)`,
    {
      request: { body: strict({ matchers, startsAt: Type.Optional(dateTime), endsAt: dateTime, comment }) },
      responses: {
        201: ok('The silence, with its id and createdBy', silence),
        400: invalid,
        404: matchersOutsideScope,
      },
      idempotent: true,
    },
  ),
  list: api('GET', 'silences', 'Active and future silences, soonest end first; ?all=true adds the expired ones still kept, a page at a time; a scoped caller sees those within its scope', { permission: 'fleet:read',
    request: { query: { all: oneOfValues(['true', 'false'] as const), ...page } },
    responses: {
      200: listOrPage(silence, 'Active and future silences: a bare array, or with ?limit / ?cursor one page {items, nextCursor}; with ?all=true always one page (limit default 100)'),
      400: invalid,
      422: error('A cursor not answered for the same query'),
    },
  }),
  get: onSilence('GET', 'silences/{id}', 'One silence, whatever its status', { permission: 'fleet:read', responses: { 200: ok('The silence', silence) } }),
  end: onSilence('DELETE', 'silences/{id}', 'End a silence now (a future one never starts); it is kept, expired', {
    responses: { 200: ok('The silence, now expired', silence) },
  }),
};
