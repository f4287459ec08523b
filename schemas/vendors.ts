/**
 * Events vendors push (shared/vendors.md "Events"; docs/guide/providers.md "Pushed events"). The one
 * route without the API key: Zoom cannot send ours, so its signature over the body, checked by the
 * handler with the app's secret token, is its credential (DESIGN D9's one exception).
 */
import { error, ok, routesOf, Type } from './shared';

const api = routesOf({ permission: 'public', invalidStatus: 400 });

const zoomEvent = Type.Object(
  {
    event: Type.String({ minLength: 1, maxLength: 128, description: 'the event type, 1 to 128 characters: endpoint.url_validation, zoomroom.alert, zoomroom.delayed_alert, zoomroom.created, ...' }),
    event_ts: Type.Optional(Type.Number({ description: 'when the event happened, epoch milliseconds: events of a room are applied in this order' })),
    payload: Type.Optional(Type.Object({}, { additionalProperties: true, description: "the event's object (a room's id, name, issue...), or the plainToken to validate" })),
  },
  { additionalProperties: true, description: "A Zoom webhook request's body, signed with the app's secret token" },
);

export const routes = {
  zoomEvents: api('POST', 'vendors/zoom/events', "Zoom's webhook events: endpoint validation, room alerts and room changes (no API key: Zoom's signature)", {
    apiKey: false,
    request: { body: zoomEvent },
    responses: {
      200: ok(
        'An endpoint validation answered ({plainToken, encryptedToken}: the HMAC-SHA256 of plainToken with the secret token, hex), or an event stored before this answer: ' +
          'applied (the connectivity of the room\'s devices it concerns set), stale (older than what those devices hold: kept, not applied), ' +
          'recorded (kept; a duplicate delivery changes nothing again; an event that changes no connectivity), unknownRoom (no device of the room known yet: kept, applied by the next sync when newer than its listing) ' +
          'or unknownType (counted, not acted on)',
        Type.Union([
          Type.Object({ plainToken: Type.String(), encryptedToken: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
          Type.Object({
            received: Type.Literal(true),
            duplicate: Type.Boolean({ description: 'the same delivery (same body) was stored before: Zoom retried' }),
            outcome: Type.Union([Type.Literal('applied'), Type.Literal('stale'), Type.Literal('recorded'), Type.Literal('unknownRoom'), Type.Literal('unknownType')]),
          }),
        ]),
      ),
      400: error('Not a JSON object with an `event` string'),
      401: error(
        'Refused, nothing stored: no x-zm-signature or x-zm-request-timestamp, a signature that does not match the body, a timestamp more than 5 minutes from now (a replay), ' +
          'or no secret token configured; the message says which',
      ),
      413: error('A body larger than 64 KiB (no Zoom event is)'),
    },
    function: {
      timeout: 6,
      environment: {
        ZOOM_WEBHOOK_SECRET_TOKEN_PARAM: '${self:custom.providerSecrets}/zoom-webhook-secret-token',
      },
    },
  }),
};
