/**
 * Alarm engine (docs/adr/0046-alarm-plan-pure.md, docs/adr/0067-alarm-states.md; DESIGN D5, D6): invalid input is 422.
 */
import { MAX_SILENCED_BY } from '#lib/alarms/pure/silences';
import { MAX_SEVERITY, MIN_SEVERITY } from '#lib/watchers/types';
import { ALARM_HISTORY_CSV_COLUMNS } from '#lib/alarms/pure/csv';
import { job } from '#lib/http/contract';
import { csvFormat, dateTime, error, INVENTORY_MEMORY_MB, inventoryJob, listOrPage, name, ok, oneOfValues, orCsv, page, pageOf, routesOf, strict, Type } from './shared';
import { watcherId } from './watchers';

/** How alarm mails leave: ses in AWS (MAIL_FROM must be a verified SES identity), outbox locally. */
const mailEnvironment = '${file(./functions/alarms/mail-env.yml)}';

const severity = Type.Integer({ minimum: MIN_SEVERITY, maximum: MAX_SEVERITY, description: '1 Critical, 2 Major, 3 Minor, 4 Info' });
const acknowledgement = {
  acknowledgedAt: Type.Optional(dateTime),
  acknowledgedBy: Type.Optional(Type.String({ description: 'the user of the bearer token sent with the acknowledgement, else "api-key"' })),
  ackComment: Type.Optional(Type.String()),
  ackUntil: Type.Optional(Type.String({ format: 'date-time', description: 'when the acknowledgement lapses if the alarm still fires: it is reminded once and shows unacknowledged again' })),
};
const ackEvent = Type.Object({
  action: oneOfValues(['ack', 'unack'] as const),
  at: dateTime,
  by: Type.String({ description: 'the principal\'s username ("api-key" without a bearer token); "system" when ackUntil lapsed' }),
  comment: Type.Optional(Type.String()),
  ackUntil: Type.Optional(dateTime),
  lapsed: Type.Optional(Type.Literal(true, { description: 'the acknowledgement lapsed at its ackUntil while the alarm still fired' })),
});
/** What an open alarm and a cleared one both say: which watcher, which device where, since when. */
const raised = {
  watcherId: Type.String(),
  severity,
  devicesn: Type.String(),
  deviceid: Type.String(),
  region: Type.String(),
  location: Type.String(),
  room: Type.String(),
  raisedAt: dateTime,
};
const alarmId = Type.String({ description: 'watcherId:devicesn' });
const alarm = Type.Object({
  id: alarmId,
  state: oneOfValues(['firing', 'pending'] as const, { description: 'pending: the condition holds, the watcher\'s pendingSeconds have not passed yet' }),
  ...raised,
  pendingSince: Type.Optional(dateTime),
  firesAt: Type.Optional(dateTime),
  description: Type.Optional(Type.String()),
  ...acknowledgement,
  silencedBy: Type.Array(Type.String(), { maxItems: MAX_SILENCED_BY, description: `ids of the silences that silence the alarm now (the first ${MAX_SILENCED_BY})` }),
  silencedByCount: Type.Integer({ minimum: 0, description: 'how many silences silence the alarm now' }),
  inMaintenance: Type.Optional(
    Type.Array(Type.String(), { minItems: 1, description: 'ids of the maintenance windows open now that hold the alarm (absent: none): it shows, and nothing is sent for it' }),
  ),
  suppressedBy: Type.Optional(
    Type.Object(
      {
        condition: oneOfValues(['roomOffline', 'locationOffline', 'watcher'] as const),
        percent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        watcherId: Type.Optional(Type.String({ description: 'the parent watcher (condition watcher)' })),
        over: Type.Optional(oneOfValues(['room', 'location'] as const)),
        region: Type.String(),
        location: Type.String(),
        room: Type.Optional(Type.String({ description: 'absent when the parent is judged over the location' })),
        since: dateTime,
      },
      { description: 'the parent condition (the watcher\'s inhibitedBy) it was raised under, where and since when (absent: none): nothing is sent for it until the parent clears, when it is told once if it still fires' },
    ),
  ),
});
const delivery = Type.Unsafe<string[] | 'suppressed'>({
  oneOf: [{ type: 'array', items: { type: 'string' } }, { const: 'suppressed' }],
  description: 'the recipients the notification went to (empty: none were asked for), or "suppressed" by a silence',
});
const historyRecord = Type.Object({
  id: alarmId,
  ...raised,
  clearedAt: dateTime,
  reason: oneOfValues(['resolved', 'watcher inactive', 'watcher deleted', 'device vanished'] as const),
  durationSeconds: Type.Integer({ minimum: 0 }),
  description: Type.Optional(Type.String()),
  ...acknowledgement,
  notified: Type.Object({ raised: Type.Optional(delivery), cleared: Type.Optional(delivery) }),
  acknowledgements: Type.Optional(Type.Array(ackEvent, { description: 'the acknowledgements of this alarm and their removals, oldest first (absent: none; the first 50 kept)' })),
});
const alarmPath = { id: Type.String({ minLength: 1, maxLength: 400, description: 'an alarm id, watcherId:devicesn' }) };
const unknownAlarm = error('No alarm with that id (or its device lies outside the caller\'s scope)');
const notOpen = error('The alarm is no longer open (it cleared)');
const mail = Type.Object({
  id: Type.String(),
  to: Type.Array(Type.String()),
  subject: Type.String(),
  text: Type.String(),
  html: Type.Optional(Type.String({ description: 'the HTML part, when the mail has one' })),
  storedAt: dateTime,
});
const api = routesOf({ permission: 'fleet:read', invalidStatus: 422 });

export const routes = {
  list: api('GET', 'alarms', 'Firing (or pending) alarms (why a room is not OK), filterable by region, location, room, severity, watcherId and acknowledgement', {
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
        state: oneOfValues(['firing', 'pending'] as const, { description: 'firing (default) or pending' }),
        acknowledged: oneOfValues(['true', 'false'] as const, { description: 'only acknowledged (true) or unacknowledged (false) alarms' }),
        ...page,
      },
    },
    responses: { 200: listOrPage(alarm, 'Open alarms, newest first: a bare array, or with ?limit / ?cursor one page {items, nextCursor}'), 422: error('Invalid filter, limit or cursor, each offending field named') },
  }),
  outbox: api('GET', 'alarms/outbox', 'Mails of the local outbox (MAILER=outbox), optionally only those to one address', {
    // every recipient's mail, of every region: what channels deliver, for whoever configures them (docs/guide/rules/access.md "GET /alarms/outbox needs channels:write")
    permission: 'channels:write',
    request: { query: { to: Type.String({ minLength: 3, maxLength: 254, description: 'an e-mail address' }), ...page } },
    responses: { 200: listOrPage(mail, 'Stored mails, newest first: a bare array, or with ?limit / ?cursor one page {items, nextCursor}'), 422: error('Invalid address, limit or cursor') },
  }),
  evaluateNow: api('POST', 'alarms/evaluate', 'Evaluate every active watcher now (operators, tests); answers what changed', {
    permission: 'config:write',
    responses: {
      200: {
        description:
          'Transitions of this run; complete is false when the run ran out of time: intervalDeviceWatchersTimeout (at least 10 s), and here at most 25 s after API Gateway took the request (the answer within 27 s, before its 29 s limit, however slow the store); the next run carries on',
        schema: Type.Object({
          raised: Type.Integer(),
          pending: Type.Integer({ description: 'alarms that went pending' }),
          dropped: Type.Integer({ description: 'pending alarms whose condition stopped before they fired' }),
          cleared: Type.Integer(),
          mailed: Type.Integer({ description: 'mails delivered this run (digests)' }),
          notifications: Type.Object(
            {
              digests: Type.Integer(),
              delivered: Type.Integer(),
              mailed: Type.Integer(),
              retrying: Type.Integer(),
              failed: Type.Integer(),
              suppressed: Type.Integer(),
              complete: Type.Boolean(),
            },
            { description: 'what the notification engine did: deliveries stored (digests x targets), delivered, due again, failed, suppressed' },
          ),
          updated: Type.Integer(),
          roomsRecomputed: Type.Integer(),
          complete: Type.Boolean(),
        }),
      },
      409: error('Another evaluation is running; retry in a few seconds'),
    },
    function: { timeout: 29, memorySize: INVENTORY_MEMORY_MB.evaluator, environment: mailEnvironment },
  }),
  acknowledge: api('POST', 'alarms/{id}/ack', 'Acknowledge an open alarm (it still counts in room status; it is never reminded of)', {
    permission: 'alarms:ack',
    request: {
      path: alarmPath,
      body: strict({
        comment: Type.Optional(Type.String({ maxLength: 2048, description: 'at most 2048 characters' })),
        ackUntil: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, in the future, at most 30 days ahead: then, if the alarm still fires, it is reminded once and unacknowledged' })),
      }),
      bodyOptional: true,
    },
    responses: {
      200: ok('The alarm with acknowledgedAt, acknowledgedBy, ackComment and ackUntil', alarm),
      404: unknownAlarm,
      409: notOpen,
      422: error('Invalid comment or ackUntil (not ahead, or more than 30 days ahead), each offending field named'),
    },
  }),
  unacknowledge: api('DELETE', 'alarms/{id}/ack', 'Remove the acknowledgement of an open alarm', {
    permission: 'alarms:ack',
    request: { path: alarmPath },
    responses: { 200: ok('The alarm, unacknowledged', alarm), 404: unknownAlarm, 409: notOpen, 422: error('Invalid id') },
  }),
  history: api('GET', 'alarms/history', 'Cleared alarms, newest first, kept ALARM_HISTORY_DAYS: by device, room, watcher, location, region or all; CSV export', {
    request: {
      query: {
        region: name(),
        location: name(),
        room: name(),
        devicesn: name(),
        watcherId,
        from: Type.String({ format: 'date-time', description: 'ISO 8601: cleared at or after (default: the start of the retention)' }),
        to: Type.String({ format: 'date-time', description: 'ISO 8601: cleared at or before (default: now)' }),
        ...page,
        ...csvFormat,
      },
    },
    responses: {
      200: orCsv(ok('One page of cleared alarms and the cursor of the next (null on the last)', pageOf(historyRecord)), {
        columns: ALARM_HISTORY_CSV_COLUMNS,
        rows: 'one row per record of the JSON page, in its order (notifiedRaised, notifiedCleared: the recipients, or suppressed)',
        paged: true,
      }),
      422: error('Invalid filter, window, limit or cursor (room needs location and region, location needs region), each offending field named'),
    },
  }),
};

export const jobs = {
  // Ticks every minute; runs when intervalDeviceWatchers seconds passed since the last run.
  evaluateOnSchedule: inventoryJob('Evaluate every active watcher when intervalDeviceWatchers seconds have passed', 'rate(1 minute)', 'evaluator', { environment: mailEnvironment }),
  // Invoked asynchronously by what saw a device change (lib/adapters/nudge.ts; docs/adr/0580-*.md):
  // the queue pass now. Lambda retries a failed run twice, then publishes it to the stage's alarm topic.
  evaluateQueued: job({
    summary: 'Evaluate the queued device changes now (an asynchronous invocation by the refresh, the sync and the vendor event receiver)',
    timeout: 300,
    memorySize: INVENTORY_MEMORY_MB.evaluator,
    maximumRetryAttempts: 2,
    destinations: { onFailure: { type: 'sns', arn: { Ref: 'AlarmTopic' } } },
    environment: mailEnvironment,
    events: [],
  }),
};
