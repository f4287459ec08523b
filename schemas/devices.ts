/** Devices and statistics (spec "Devices"; DESIGN §6, D4, D10, D11): invalid input is 422. */
import { AVAILABILITY_CSV_COLUMNS, DEVICE_CSV_COLUMNS, DEVICE_HISTORY_CSV_COLUMNS } from '#lib/devices/csv';
import { maintenanceMark } from './maintenance';
import { areaRoutesOf, csvFormat, dateTime, error, inventoryJob, listOrPage, name, ok, orCsv, page, pageOf, scheduled, SINGLE_LINE, SINGLE_LINE_RULE, strict, type TSchema, Type } from './shared';

/** Where devices come from (lib/inventory/provider). */
const providerEnvironment = '${file(./functions/devices/provider-env.yml)}';

/** Device filter parameters: all three required, non-empty; `all` = no narrowing (DESIGN D10). */
const filterField = Type.String({ minLength: 1, maxLength: 256, pattern: SINGLE_LINE, description: `a non-empty name ${SINGLE_LINE_RULE}, or "all"` });
export const deviceFilter = strict({ regionName: filterField, locationName: filterField, roomName: filterField });

const path = { devicesn: name() };
/** `{devicesn}` and refresh take an empty-object body, or none at all. */
const emptyBody = {
  body: Type.Unsafe<Record<string, never>>({ type: 'object', additionalProperties: false, maxProperties: 0, description: 'an empty object' }),
  bodyOptional: true,
} as const;

const integer = Type.Integer({ minimum: 0 });
/** The Device answered (spec "Device"), written out as the promise to clients: its fields are lib/devices/model.ts's answered ones (tests/unit/device-contract.test.ts), plus the maintenance marks. */
export const device = Type.Partial(
  Type.Object({
    deviceid: Type.String(),
    devicesn: Type.String(),
    devicemodel: Type.String(),
    status: Type.Partial(Type.Object({ connected: Type.Boolean(), inCallStatus: Type.String() })),
    deviceconnected: Type.Boolean(),
    details: Type.Partial(Type.Object({ room: Type.String(), location: Type.String(), region: Type.String() })),
    vendor: Type.String({ description: 'the provider that reports the device: webex, zoom, http or simulated' }),
    vendorDetails: Type.Partial(
      Type.Object({
        connectionDetail: Type.String({ description: "the vendor's own connection state (Webex connected_with_issues, Zoom Online, ...)" }),
        errorCodes: Type.Array(Type.String()),
        software: Type.String(),
        lastSeen: Type.String({ description: 'when the vendor last saw a device that is not connected' }),
        plannedMaintenance: Type.String({ description: 'off, on or upcoming' }),
      }),
    ),
    staleSince: Type.String({ format: 'date-time', description: 'present while its provider has failed longer than PROVIDER_STALE_MINUTES: the state shown is the last one known' }),
    inMaintenance: maintenanceMark.inMaintenance,
    maintenance: maintenanceMark.maintenance,
  }),
);
const { api, onRecord: onDevice, invalid, unknown } = areaRoutesOf({ permission: 'fleet:read', invalidStatus: 422 }, { path, invalid: 'A filter field is missing or empty, each named', unknown: 'No device with that serial number' });
const counters = <K extends string>(...names: K[]) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, integer])) as Record<K, typeof integer>);

/** A statistic over the devices in scope: POST with the device filter. */
const statistic = <S extends TSchema>(path: string, summary: string, description: string, schema: S) =>
  api('POST', path, summary, { request: { body: deviceFilter }, responses: { 200: { description, schema }, 422: invalid } });
const oneInteger = Type.Array(integer, { minItems: 1, maxItems: 1 });

export const routes = {
  allDevices: api('POST', 'videoDevice/all/allDevices', 'Devices in scope (region, location, room; "all" = any); paginated with limit/cursor; CSV export', {
    request: { body: deviceFilter, query: { ...page, ...csvFormat } },
    responses: {
      200: orCsv(listOrPage(device, 'Without limit/cursor: every device in scope. With them: one page and the cursor of the next'), {
        columns: DEVICE_CSV_COLUMNS,
        rows: 'one row per device of the JSON page, in its order (the Device flattened: model is devicemodel, connected and inCallStatus its status, errorCodes joined by spaces); CSV is always paged, with or without limit/cursor',
        paged: true,
      }),
      422: invalid,
    },
  }),
  get: onDevice('POST', 'videoDevice/{devicesn}', 'A device by serial number', { request: emptyBody, responses: { 200: ok('The device', device) } }),
  refresh: onDevice('POST', 'videoDevice/refresh/{devicesn}', 'Ask the provider for the live status of a device, store it, answer it', {
    request: emptyBody,
    responses: {
      200: ok(
        'The device with refreshInfo.lastRefresh',
        Type.Intersect([device, Type.Partial(Type.Object({ refreshInfo: Type.Partial(Type.Object({ lastRefresh: dateTime })) }))]),
      ),
      503: error('The device provider did not answer'),
    },
    function: { environment: providerEnvironment },
  }),
  totalDevices: statistic('videoDevice/all/totalDevices', 'Number of devices in scope', 'One integer in an array', oneInteger),
  connected: statistic('videoDevice/all/devicesConnected', 'Number of connected devices in scope', 'One integer in an array', oneInteger),
  numOfDevicesByRoom: statistic(
    'videoDevice/all/numOfDevicesByRoom',
    'Device counts per room in scope',
    'One item per room',
    Type.Array(
      Type.Partial(Type.Object({ name: Type.String(), deviceCount: integer, onlineDeviceCount: integer, offlineDeviceCount: integer })),
    ),
  ),
  numOfRooms: statistic('videoDevice/room/numOfRooms', 'Number of rooms with devices in scope', 'The count', counters('totalRooms')),
  numDevicesConnected: statistic(
    'videoDevice/room/numDevicesConnected',
    'Devices in scope: total, online, offline',
    'The counts',
    counters('total', 'online', 'offline'),
  ),
  roomStatusCount: statistic(
    'videoDevice/room/roomStatusCount',
    'Rooms in scope per status level (worst open alarm); the five levels sum to TotalRooms',
    'The counts',
    counters('TotalRooms', 'CriticalStatus', 'MajorStatus', 'MinorStatus', 'InfoStatus', 'OKStatus'),
  ),
  history: api('GET', 'videoDevice/{devicesn}/history', 'Connectivity transitions of a device (first observation and every connected flip), newest first', {
    request: {
      path,
      query: {
        from: Type.String({ format: 'date-time', description: 'ISO 8601 (default: the start of the retention)' }),
        to: Type.String({ format: 'date-time', description: 'ISO 8601 (default: now)' }),
        ...page,
        ...csvFormat,
      },
    },
    responses: {
      200: orCsv(
        ok(
          'One page of transitions in [from, to] (default: the retention up to now)',
          pageOf(Type.Object({ at: dateTime, connected: Type.Boolean(), inCallStatus: Type.String() })),
        ),
        { columns: DEVICE_HISTORY_CSV_COLUMNS, rows: "one row per transition of the JSON page, in its order, each with the device's serial number", paged: true },
      ),
      404: unknown,
      422: error('Invalid window, limit or cursor, each offending field named'),
    },
  }),
  availability: api('POST', 'videoDevice/room/availability', 'Availability of the rooms in scope: connected over observed device-time, worst rooms first; CSV export', {
    request: {
      body: strict({
        ...deviceFilter.properties,
        from: Type.Optional(dateTime),
        to: Type.Optional(dateTime),
        hours: Type.Optional(
          Type.Union([Type.Literal('business'), Type.Literal('24h')], {
            description:
              'Count business hours or the whole day; default business when business hours are configured (BUSINESS_HOURS in BUSINESS_TIME_ZONE, or a location profile in scope naming some), else 24h. Each room counts in its own hours and zone: its override in its location\'s profile, else the profile\'s, else BUSINESS_HOURS on the profile\'s wall clock, else the whole day (PUT /locations/{region}/{location}/profile). Business hours, like unhealthyDays, are read from the devices\' connectivity changes: outages shorter than MIN_OUTAGE_SECONDS (default 120) are ignored and maintenance windows left out; at most 2000 devices in scope',
          }),
        ),
        unhealthyDays: Type.Optional(
          Type.Union([Type.Literal(30), Type.Literal(90)], {
            description: 'Also count, per room, the days (up to `to`) with more than 20 minutes of outage inside the counted hours',
          }),
        ),
      }),
      query: csvFormat,
    },
    responses: {
      200: orCsv(ok(
        'The window (default the last 24 hours, at most 31 days, cut at now), each room and the whole scope',
        Type.Object({
          from: dateTime,
          to: dateTime,
          rooms: Type.Array(
            Type.Object({
              region: Type.String(),
              location: Type.String(),
              room: Type.String(),
              availability: Type.Number({ minimum: 0, maximum: 1 }),
              deviceCount: integer,
              outageMinutes: Type.Optional(Type.Number({ minimum: 0, description: 'Minutes inside the counted hours in which a device of the room was out (business hours or unhealthyDays asked)' })),
              unhealthyDays: Type.Optional(Type.Integer({ minimum: 0, description: 'Days with more than 20 minutes of outage inside the counted hours (when asked)' })),
              hours: Type.Optional(
                Type.Union([Type.Literal('business'), Type.Literal('24h')], {
                  description: "What this room was counted in (business: its own business hours; 24h: the whole day, e.g. no hours anywhere for it); answered when a location profile applies to a room of the answer",
                }),
              ),
              timeZone: Type.Optional(Type.String({ description: "The zone of this room's days (answered with hours)" })),
            }),
          ),
          overall: Type.Number({ minimum: 0, maximum: 1 }),
          hours: Type.Optional(Type.Union([Type.Literal('business'), Type.Literal('24h')], { description: 'What was counted (answered when read from connectivity changes)' })),
        }),
      ), {
        columns: AVAILABILITY_CSV_COLUMNS,
        rows: 'one row per room of rooms, in its order (worst first), each with the window (from, to); overall is left out. One document, not paged: its rows are the rooms in scope, computed together',
        paged: false,
      }),
      422: error('A filter field is missing or empty, or the window is invalid, each named'),
    },
  }),
};

export const jobs = {
  // The device inventory from the provider into the table.
  // no async retries: a retry could only overlap the next scheduled sync (the lease makes one harmless anyway)
  sync: inventoryJob('Synchronise the device inventory from the provider', 'rate(5 minutes)', 'sync', { maximumRetryAttempts: 0, environment: providerEnvironment }),
  // Between syncs: only what each vendor says is not connected, compared with what is stored (its
  // schedule is the shortest a rate takes; STATUS_POLL_SECONDS sets it under npm start). No async
  // retries either: the next tick is a minute away, and it shares the sync's lease.
  statusPoll: scheduled('Poll each provider for its devices not connected, between syncs', 'rate(1 minute)', {
    timeout: 60,
    maximumRetryAttempts: 0,
    environment: providerEnvironment,
  }),
};
