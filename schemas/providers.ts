/** Device providers (DESIGN §6): how each vendor's sync is doing. */
import { dateTime, ok, routesOf, Type, type TSchema } from './shared';

/** What GET /providers reads of the providers' settings (as functions/devices/provider-env.yml gives them; no secret names). */
const providerEnvironment = {
  DEVICE_PROVIDERS: "${env:DEVICE_PROVIDERS, ''}",
  DEVICE_PROVIDER: "${env:DEVICE_PROVIDER, ''}",
  PROVIDER_STALE_MINUTES: "${env:PROVIDER_STALE_MINUTES, '30'}",
};

const count = Type.Integer({ minimum: 0 });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const failure = Type.Object({
  at: dateTime,
  message: Type.String({ description: 'what failed; never a token or a secret' }),
  status: Type.Optional(Type.Integer({ description: "the vendor's HTTP status" })),
  trackingId: Type.Optional(Type.String({ description: "the vendor's tracking id (Webex Trackingid), for its support" })),
});
const provider = Type.Object({
  name: Type.String({ description: 'webex, zoom, http or simulated: also the `vendor` of its devices' }),
  configured: Type.Boolean({ description: 'named by DEVICE_PROVIDERS now' }),
  lastSyncAt: nullable(dateTime),
  lastSuccessAt: nullable(dateTime),
  lastError: nullable(failure),
  failingSince: nullable(dateTime),
  stale: Type.Boolean({ description: 'failing longer than PROVIDER_STALE_MINUTES: its devices carry staleSince' }),
  staleSince: nullable(dateTime),
  devices: count,
  skipped: Type.Record(Type.String(), count, {
    description:
      'records of the last listing skipped, by reason: noSerial, personal, malformed, ..., and `<why>:<field>` for a key field out of its bound ' +
      '(why: unfit, empty, tooLong; e.g. tooLong:details.room)',
  }),
  adjusted: Type.Record(Type.String(), count, {
    description:
      'records of the last listing stored with a field changed to fit its bound, by `<how>:<field>` (how: truncated, cleaned, stripped, ' +
      'renamed, dropped; e.g. truncated:vendorDetails.software, renamed:details.location for a place named "all")',
  }),
  duplicates: count,
  requests: count,
  throttledWaits: count,
  waitedSeconds: Type.Number({ minimum: 0 }),
  heldRemovals: nullable(Type.Object({ count, seen: count, since: dateTime }, { description: 'removals the guard holds until seen in 3 syncs in a row' })),
  pagingFailures: Type.Integer({ minimum: 0, description: 'listings in a row stopped by a paging bound (a page seen twice, or more pages than twice the fleet held fills); 0 after a success' }),
  backoffUntil: nullable(Type.String({ format: 'date-time', description: 'while backing off after such a failure: the listing is not tried before this (5 minutes, doubling, at most 4 hours)' })),
  events: nullable(
    Type.Object(
      {
        received: count,
        rejected: Type.Integer({ minimum: 0, description: 'refused: unsigned, mis-signed, replayed (stale timestamp) or oversized' }),
        duplicates: Type.Integer({ minimum: 0, description: 'deliveries of an event already stored (Zoom retries): nothing changed twice' }),
        unknown: Type.Integer({ minimum: 0, description: 'signed events of a type the receiver does not act on (answered 200)' }),
        lastEventAt: nullable(dateTime),
      },
      { description: "its pushed events (Zoom's webhooks, POST /vendors/zoom/events); null for a vendor that pushed none" },
    ),
  ),
  statusPolls: nullable(
    Type.Object(
      {
        count: Type.Integer({ minimum: 0, description: 'status polls run' }),
        failed: Type.Integer({ minimum: 0, description: 'of those, failed (what we hold stayed as it was)' }),
        lastAt: nullable(dateTime),
        lastError: nullable(Type.String({ description: "the last poll's failure; null after a success. Never a token or a secret" })),
        requests: Type.Integer({ minimum: 0, description: 'vendor requests all its polls sent (token requests included): their cost' }),
        lastRequests: Type.Integer({ minimum: 0, description: 'vendor requests the last poll sent' }),
        changes: Type.Integer({ minimum: 0, description: 'connectivity changes its polls wrote (devices the vendor saw otherwise than we held)' }),
      },
      {
        description:
          'its cheap status polls between syncs (STATUS_POLL_SECONDS): only what the vendor says is not connected (Webex connectionStatus filters, Zoom rooms status=Offline); ' +
          'null for a provider never polled (one without a status filter: http)',
      },
    ),
  ),
});

const api = routesOf({ permission: 'fleet:read', invalidStatus: 400 });

export const routes = {
  list: api('GET', 'providers', 'Device providers: last success, last error, devices, requests, throttled waits, held removals, stale since, paging backoff, pushed events, status polls', {
    responses: {
      200: ok(
        'Each provider configured, with a stored status or with pushed events, the configured first',
        Type.Object({
          configured: Type.Array(Type.String()),
          message: Type.Optional(Type.String({ description: 'present when no provider is configured: the sync stores nothing' })),
          providers: Type.Array(provider),
        }),
      ),
    },
    function: { environment: providerEnvironment },
  }),
};
