/** Scheduled fleet reports (docs/guide/rules/reports.md, the routes: docs/guide/rules/reports.md "Report schedules: /reports under watchers:write, kept to a scope like a watcher, 422 for bad input"): invalid input is 422. */
import { WEEKDAYS } from '#lib/maintenance/pure/rrule';
import { REPORT_PERIODS } from '#lib/reports/types';
import { accessScope, answeredScope, areaRoutesOf, changedMeanwhile, dateTime, error, name, ok, oneOfValues, pagedList, scheduled, SINGLE_LINE, strict, text, Type, uuidParam } from './shared';

/** How report mails leave: the same mailer as the alarm engine's. */
const mailEnvironment = '${file(./functions/alarms/mail-env.yml)}';
/** The most channels one schedule sends to. */
export const MAX_REPORT_CHANNELS = 10;

const path = { id: uuidParam('a report schedule id (a UUID)') };
const channelId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'the id of an existing notification channel (GET /channels)' });

const timingFields = {
  period: oneOfValues(REPORT_PERIODS, { description: 'daily: each period is one day, ending at `time`; weekly: one week, ending on `weekday` at `time`' }),
  weekday: Type.Optional(oneOfValues(WEEKDAYS, { description: 'weekly only (required there): the day a period ends and its report is sent, MO..SU' })),
  time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'the local time a period ends and its report is sent, HH:MM (00:00 to 23:59)' }),
  timeZone: Type.String({ minLength: 1, maxLength: 64, pattern: SINGLE_LINE, description: 'the IANA time zone (e.g. Europe/Berlin) whose wall clock `time` reads; DST moves the period, never the local time' }),
};

const scheduleBody = strict({
  name: name(200),
  ...timingFields,
  channelIds: Type.Array(channelId, { minItems: 1, maxItems: MAX_REPORT_CHANNELS, uniqueItems: true, description: `1 to ${MAX_REPORT_CHANNELS} channels the report goes to (an e-mail channel gets a mail with text and HTML parts, a webhook the JSON report, signed)` }),
  scope: Type.Optional(accessScope('report')),
  active: Type.Optional(Type.Boolean({ description: 'default true; an inactive schedule makes no report' })),
});

const schedule = Type.Object({
  id: Type.String({ description: 'a UUIDv7: ids sort in creation order' }),
  name: Type.String(),
  ...timingFields,
  channelIds: Type.Array(Type.String()),
  scope: Type.Unsafe<{ region: string; location?: string }[]>({ ...answeredScope, description: 'the places reported on: empty, the whole fleet' }),
  active: Type.Boolean(),
  createdBy: Type.String({ description: 'the user or service of the bearer token sent, else "api-key"' }),
  createdAt: dateTime,
  updatedAt: dateTime,
  nextReportAt: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description: 'when the current period ends and its report is made; null while inactive' }),
});

const room = Type.Object({ region: Type.String(), location: Type.String(), room: Type.String(), deviceCount: Type.Integer(), availability: Type.Number({ description: '0..1' }) });
const report = Type.Object(
  {
    scheduleId: Type.String(),
    name: Type.String(),
    period: Type.String(),
    from: dateTime,
    to: dateTime,
    timeZone: Type.String(),
    scope: Type.String({ description: 'the places covered, as words' }),
    availability: Type.Object({
      overall: Type.Number({ description: 'connected over observed device-time in the period, 0..1 (24 h)' }),
      rooms: Type.Integer({ description: 'rooms observed' }),
      worstRooms: Type.Array(room, { description: 'the 10 worst rooms, worst first' }),
    }),
    alarms: Type.Object({
      total: Type.Integer({ description: 'alarms cleared in the period (at most 5,000 are read)' }),
      bySeverity: Type.Record(Type.String(), Type.Integer()),
      byKind: Type.Array(
        Type.Object({ watcherId: Type.String(), kind: Type.String({ description: "the watcher's type, unknown once deleted" }), description: Type.String(), severity: Type.Integer(), count: Type.Integer() }),
        { description: 'per watcher, most first (at most 50)' },
      ),
      truncated: Type.Boolean({ description: 'the period cleared more alarms than were read' }),
    }),
    longestOutages: Type.Array(
      Type.Object({ region: Type.String(), location: Type.String(), room: Type.String(), devicesn: Type.String(), raisedAt: dateTime, clearedAt: dateTime, durationSeconds: Type.Integer() }),
      { description: 'alarms of "offline" watchers cleared in the period, longest first (at most 10)' },
    ),
    generatedAt: dateTime,
  },
  { description: 'what a report tells (the json webhook payload carries it as `report`)' },
);
const sent = Type.Object({
  report,
  deliveries: Type.Array(
    Type.Object({
      channelId: Type.String(),
      deliveryId: Type.String(),
      type: Type.String({ description: 'report' }),
      at: dateTime,
    }),
    {
      description:
        "one per channel the schedule names, attempted once before the answer; how it went is in the channel's delivery log (GET /channels/{id}/deliveries, channels:write), never here",
    },
  ),
});


const { api, onRecord: onSchedule, invalid } = areaRoutesOf({ permission: 'watchers:write', invalidStatus: 422 }, { path, invalid: 'Invalid input, each offending field named (an unknown time zone, weekday missing for weekly or sent for daily, a channel id unknown or not the caller\'s to name: without channels:write only channels a schedule within the caller\'s scope already names)', unknown: "No report schedule with that id (or none within the caller's scope)" });

export const routes = {
  create: api('POST', 'reports', 'Create a report schedule: a daily or weekly fleet report of its scope, mailed and posted to its channels once per period', {
    request: { body: scheduleBody },
    responses: {
      201: ok('The schedule, with its id and when its next report is made', schedule),
      422: invalid,
      404: error("body.scope names places outside the caller's scope"),
      409: error('The stage holds REPORTS_MAX schedules'),
    },
    idempotent: true,
  }),
  list: api('GET', 'reports', 'The report schedules, oldest first, a page at a time; a scoped caller sees those within its scope', {
    permission: 'fleet:read',
    ...pagedList(schedule, 'An invalid limit, or a cursor not answered for the same query'),
  }),
  get: onSchedule('GET', 'reports/{id}', 'One report schedule', { permission: 'fleet:read', responses: { 200: ok('The schedule', schedule) } }),
  update: onSchedule('PUT', 'reports/{id}', 'Replace a report schedule whole (id, createdBy and createdAt kept; reports already made stay made)', {
    request: { body: scheduleBody },
    responses: { 200: ok('The schedule as replaced', schedule), 409: changedMeanwhile },
  }),
  remove: onSchedule('DELETE', 'reports/{id}', 'Delete a report schedule', { responses: { 200: text('Confirmation'), 409: changedMeanwhile } }),
  run: onSchedule('POST', 'reports/{id}/run', 'Send the report of the period so far (since the last scheduled report) to the schedule\'s channels now; it does not stand for a scheduled report', {
    responses: {
      200: ok('The report and one delivery per channel, each attempted once before the answer', sent),
      429: error('The report was run within the last minute, or the caller ran 10 reports within the hour; retry after Retry-After seconds'),
    },
    function: { timeout: 29, environment: mailEnvironment },
  }),
};

export const jobs = {
  // Every 15 minutes: makes each active schedule's report once its period has ended (a marker per period: once, even when runs race).
  runOnSchedule: scheduled('Make the reports whose period has ended, once each', 'rate(15 minutes)', { timeout: 300, maximumRetryAttempts: 0, environment: mailEnvironment }),
};
