/** Silences (issue 15; docs/decisions.md "Alarm lifecycle and history"): invalid input is 400. */
import { MAX_SILENCE_DAYS } from '#lib/alarms/silences';
import { route } from '#lib/http/contract';
import { dateTime, error, list, name, ok, oneOfValues, strict, Type } from './shared';
import { watcherId } from './watchers';

const silenceId = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'a silence id (a UUID)',
});
const path = { id: silenceId };
const comment = Type.String({ minLength: 1, maxLength: 2048, description: 'why: 1 to 2048 characters' });

const matcherFields = {
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
const unknown = error('No silence with that id');

export const routes = {
  create: route({
    method: 'POST',
    path: 'silences',
    summary: `Silence matching alarms' notifications from startsAt (default now) to endsAt (at most ${MAX_SILENCE_DAYS} days later)`,
    access: 'key',
    invalidStatus: 400,
    request: { body: strict({ matchers, startsAt: Type.Optional(dateTime), endsAt: dateTime, comment }) },
    responses: { 201: ok('The silence, with its id and createdBy', silence), 400: invalid },
  }),
  list: route({
    method: 'GET',
    path: 'silences',
    summary: 'Active and future silences, soonest end first; ?all=true adds the expired ones still kept',
    access: 'key',
    invalidStatus: 400,
    request: { query: { all: oneOfValues(['true', 'false'] as const) } },
    responses: { 200: list('The silences', silence), 400: invalid },
  }),
  get: route({
    method: 'GET',
    path: 'silences/{id}',
    summary: 'One silence, whatever its status',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The silence', silence), 400: invalid, 404: unknown },
  }),
  end: route({
    method: 'DELETE',
    path: 'silences/{id}',
    summary: 'End a silence now (a future one never starts); it is kept, expired',
    access: 'key',
    invalidStatus: 400,
    request: { path },
    responses: { 200: ok('The silence, now expired', silence), 400: invalid, 404: unknown },
  }),
};
