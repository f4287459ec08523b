/** Recurring maintenance windows (docs/guide/rules/maintenance.md): invalid input is 400. */
import { MAX_DURATION_MINUTES, MAX_INTERVAL, WEEKDAYS } from '#lib/maintenance/pure/schedule';
import { areaRoutesOf, changedMeanwhile, dateTime, error, name, ok, oneOfValues, pagedList, SINGLE_LINE, strict, text, Type, uuidParam } from './shared';
import { comment, matcherFields as silenceMatchers, matchersOutsideScope } from './silences';

const windowId = uuidParam('a maintenance window id (a UUID)');
const path = { id: windowId };
const matcherFields = { ...silenceMatchers, vendor: Type.Optional(name()) };
const matchers = strict(matcherFields, {
  minProperties: 1,
  description: "at least one of region, location, room, devicesn, watcherId, vendor; an alarm is held when every one given equals its own (vendor: its device's)",
});

const RRULE_SUBSET =
  `an RFC 5545 RRULE of this subset: FREQ=DAILY or WEEKLY (required); INTERVAL 1 to ${MAX_INTERVAL} (above 1 needs startsAt, the weeks or days are counted from it); ` +
  'BYDAY a list of MO..SU without ordinals (required with WEEKLY); BYHOUR a list of 0..23 (required); BYMINUTE a list of 0..59 (default 0); WKST (default MO); ' +
  'UNTIL a date YYYYMMDD (local) or a UTC date-time YYYYMMDDTHHMMSSZ, the last an opening may start. COUNT, BYMONTH, BYMONTHDAY, BYSETPOS and other parts are refused. ' +
  'Example: FREQ=WEEKLY;BYDAY=TU;BYHOUR=22';
const scheduleFields = {
  days: Type.Optional(Type.Array(oneOfValues(WEEKDAYS), { minItems: 1, maxItems: 7, uniqueItems: true, description: 'weekly form: the days it opens, of MO, TU, WE, TH, FR, SA, SU' })),
  start: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'weekly form: the local time it opens, HH:MM (00:00 to 23:59)' })),
  rrule: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: SINGLE_LINE, description: RRULE_SUBSET })),
  durationMinutes: Type.Integer({
    minimum: 1,
    maximum: MAX_DURATION_MINUTES,
    description: `how long each opening lasts, in minutes of local wall-clock time (1 to ${MAX_DURATION_MINUTES}, 7 days), shorter than the time between two openings`,
  }),
  timeZone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, pattern: SINGLE_LINE, description: 'an IANA time zone (e.g. Europe/Berlin) whose wall clock the schedule reads; absent: the zone of the profile of the location the matchers pin (region and location; a room\'s own zone first), else required' }),
  ),
};
const schedule = strict(scheduleFields, {
  description:
    'either the weekly form (days and start) or rrule, with durationMinutes and timeZone. Each opening starts and ends on the wall clock: ' +
    'a local time the clock skips (spring forward) is taken at the first instant after the gap, one it shows twice (fall back) at its first occurrence',
});

const windowBody = strict({
  matchers,
  schedule,
  startsAt: Type.Optional(Type.String({ format: 'date-time', description: 'openings start at or after it (absent: the schedule holds from any time on)' })),
  endsAt: Type.Optional(Type.String({ format: 'date-time', description: 'openings start before it, after startsAt; one under way then runs its whole length (absent: no end)' })),
  comment,
});

const maintenanceWindow = Type.Object({
  id: Type.String({ description: 'a UUIDv7: ids sort in creation order' }),
  matchers: Type.Object(matcherFields),
  schedule: Type.Object({ ...scheduleFields, timeZone: Type.String({ description: 'the IANA time zone, as sent or taken from the place' }) }),
  startsAt: Type.Optional(dateTime),
  endsAt: Type.Optional(dateTime),
  comment: Type.String(),
  createdBy: Type.String({ description: 'the user or service of the bearer token sent, else "api-key"' }),
  createdAt: dateTime,
  updatedAt: dateTime,
  status: oneOfValues(['active', 'scheduled', 'ended'] as const, { description: 'active: open now; scheduled: opens later; ended: opens no more' }),
  nextOpening: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description: 'when it next opens (after the opening under way, if active); null when it opens no more' }),
  nextClosing: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description: 'when the opening under way, else the next one, closes; null when it opens no more' }),
});

/** How a device or room answer names the open windows that hold it (docs/guide/rules/maintenance.md "Devices and rooms show in maintenance at read time, the windows named with their end"). */
const heldBy = Type.Object({
  id: Type.String({ description: 'the window id' }),
  comment: Type.String({ description: "the window's comment (its name on the board)" }),
  closesAt: dateTime,
});
/** The fields a device or room answer carries while an open maintenance window holds it; absent otherwise. */
export const maintenanceMark = {
  inMaintenance: Type.Literal(true, { description: 'present (true) while an open maintenance window holds it (a window naming a watcherId holds alarms only); absent otherwise' }),
  maintenance: Type.Array(heldBy, { description: 'the open windows that hold it, by id, each with the end of its opening under way; present with inMaintenance' }),
};

const maintenanceEvent = Type.Object({
  windowId: Type.String(),
  event: oneOfValues(['opened', 'closed'] as const, { description: 'opened: an opening started (at its start); closed: it ended (at its end)' }),
  at: dateTime,
  opening: Type.Object({ start: dateTime, end: dateTime }, { description: 'the opening (occurrence) the event belongs to' }),
  recordedAt: Type.String({ format: 'date-time', description: 'when an evaluator run recorded it (at or after `at`)' }),
});


const { api, onRecord: onWindow, invalid } = areaRoutesOf({ permission: 'silences:write', invalidStatus: 400 }, { path, invalid: 'Invalid input, each offending field named (an unknown time zone, an RRULE outside the subset, a duration of 0 or over 7 days, endsAt not after startsAt, a schedule that opens no more, more than 48 openings a day)', unknown: "No maintenance window with that id (or none within the caller's scope)" });

export const routes = {
  create: api('POST', 'maintenance', 'Create a recurring maintenance window: while it is open the alarms it matches are held (the engine\'s part is still to come)', {
    request: { body: windowBody },
    responses: { 201: ok('The window, with its id, createdBy, status and next opening', maintenanceWindow), 400: invalid, 404: matchersOutsideScope, 409: error('The stage holds MAINTENANCE_WINDOWS_MAX windows not yet ended') },
    idempotent: true,
  }),
  list: api('GET', 'maintenance', 'The kept maintenance windows, whatever their status, oldest first, a page at a time; a scoped caller sees those within its scope', {
    permission: 'fleet:read',
    ...pagedList(maintenanceWindow, 'A cursor not answered for the same query', { 400: invalid }),
  }),
  get: onWindow('GET', 'maintenance/{id}', 'One maintenance window, whatever its status', { permission: 'fleet:read', responses: { 200: ok('The window', maintenanceWindow) } }),
  history: onWindow('GET', 'maintenance/{id}/history', "A window's openings and closings, newest first, a page at a time: each opening is recorded when it starts and when it ends, once each", {
    permission: 'fleet:read',
    ...pagedList(maintenanceEvent, 'A cursor not answered for the same window'),
  }),
  update: onWindow('PUT', 'maintenance/{id}', 'Replace a maintenance window whole (id, createdBy and createdAt kept)', {
    request: { body: windowBody },
    responses: { 200: ok('The window as replaced', maintenanceWindow), 409: changedMeanwhile },
  }),
  remove: onWindow('DELETE', 'maintenance/{id}', 'Delete a maintenance window', { responses: { 200: text('Confirmation'), 409: changedMeanwhile } }),
};
