/** Alarm engine (docs/decisions.md "Alarm engine"; DESIGN D5, D6): invalid input is 422. */
import { MAX_SEVERITY, MIN_SEVERITY } from '#lib/watchers/rules';
import { job, route } from '#lib/http/contract';
import { dateTime, error, listOrPage, name, page, Type } from './shared';
import { watcherId } from './watchers';

/** How alarm mails leave: ses in AWS (MAIL_FROM must be a verified SES identity), outbox locally. */
const mailEnvironment = '${file(./functions/alarms/mail-env.yml)}';

const alarm = Type.Object({
  id: Type.String({ description: 'watcherId:devicesn' }),
  watcherId: Type.String(),
  severity: Type.Integer({ minimum: MIN_SEVERITY, maximum: MAX_SEVERITY, description: '1 Critical, 2 Major, 3 Minor, 4 Info' }),
  devicesn: Type.String(),
  deviceid: Type.String(),
  region: Type.String(),
  location: Type.String(),
  room: Type.String(),
  raisedAt: dateTime,
  description: Type.Optional(Type.String()),
});
const mail = Type.Object({
  id: Type.String(),
  to: Type.Array(Type.String()),
  subject: Type.String(),
  text: Type.String(),
  storedAt: dateTime,
});
export const routes = {
  list: route({
    method: 'GET',
    path: 'alarms',
    summary: 'Open alarms (why a room is not OK), filterable by region, location, room, severity and watcherId',
    access: 'key',
    invalidStatus: 422,
    request: {
      query: {
        region: name(),
        location: name(),
        room: name(),
        severity: Type.String({
          pattern: `^[${MIN_SEVERITY}-${MAX_SEVERITY}]$`,
          description: `an integer from ${MIN_SEVERITY} to ${MAX_SEVERITY}`,
        }),
        watcherId,
        ...page,
      },
    },
    responses: { 200: listOrPage(alarm, 'Open alarms, newest first: a bare array, or with ?limit / ?cursor one page {items, nextCursor}'), 422: error('Invalid filter, limit or cursor, each offending field named') },
  }),
  outbox: route({
    method: 'GET',
    path: 'alarms/outbox',
    summary: 'Mails of the local outbox (MAILER=outbox), optionally only those to one address',
    access: 'key',
    invalidStatus: 422,
    request: { query: { to: Type.String({ minLength: 3, maxLength: 254, description: 'an e-mail address' }), ...page } },
    responses: { 200: listOrPage(mail, 'Stored mails, newest first: a bare array, or with ?limit / ?cursor one page {items, nextCursor}'), 422: error('Invalid address, limit or cursor') },
  }),
  evaluateNow: route({
    method: 'POST',
    path: 'alarms/evaluate',
    summary: 'Evaluate every active watcher now (operators, tests); answers what changed',
    access: 'key',
    invalidStatus: 422,
    responses: {
      200: {
        description: 'Transitions of this run; complete is false when the run hit intervalDeviceWatchersTimeout',
        schema: Type.Object({
          raised: Type.Integer(),
          cleared: Type.Integer(),
          mailed: Type.Integer(),
          updated: Type.Integer(),
          roomsRecomputed: Type.Integer(),
          complete: Type.Boolean(),
        }),
      },
      409: error('Another evaluation is running; retry in a few seconds'),
    },
    function: { timeout: 29, environment: mailEnvironment },
  }),
};

export const jobs = {
  // Ticks every minute; runs when intervalDeviceWatchers seconds passed since the last run.
  evaluateOnSchedule: job({
    summary: 'Evaluate every active watcher when intervalDeviceWatchers seconds have passed',
    timeout: 300,
    environment: mailEnvironment,
    events: [{ schedule: 'rate(1 minute)' }],
  }),
};
