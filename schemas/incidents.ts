/**
 * Events incident tools push (docs/guide/pagerduty.md). Open like the vendor event receivers: PagerDuty
 * cannot send our API key, so its signature over the body, checked by the handler with the
 * subscription's secret, is its credential.
 */
import { error, ok, routesOf, Type } from './shared';

const api = routesOf({ permission: 'public', invalidStatus: 400 });

const pagerdutyEvent = Type.Object(
  {
    event: Type.Object(
      {
        id: Type.String({ minLength: 1, maxLength: 128, description: "the webhook event's id, 1 to 128 characters" }),
        event_type: Type.String({ minLength: 1, maxLength: 128, description: 'the event type, 1 to 128 characters (incident.acknowledged and incident.resolved are acted on; any other is answered 200 and ignored)' }),
        occurred_at: Type.String({ minLength: 1, maxLength: 64, description: 'when it happened, an ISO 8601 date-time of at most 64 characters (more than 30 minutes from now is refused as a replay)' }),
      },
      { additionalProperties: true, description: 'agent (who acted) and data (the incident: its incident_key is our alarm id) besides' },
    ),
  },
  { additionalProperties: true, description: 'A PagerDuty V3 webhook body, signed with the subscription secret' },
);

export const routes = {
  pagerdutyEvents: api('POST', 'incidents/pagerduty/events', "PagerDuty's V3 webhook events: an acknowledgement there acknowledges our alarm (no API key: PagerDuty's signature)", {
    apiKey: false,
    request: { body: pagerdutyEvent },
    responses: {
      200: ok(
        'The event taken: acknowledged (our alarm, by the PagerDuty user, not sent back), alreadyAcknowledged, stillFiring (resolved there while the device still fails: ' +
          'the alarm stays firing, its history says so), notOpen, unknownAlarm (no alarm of ours) or ignored (another event type)',
        Type.Object({
          received: Type.Literal(true),
          outcome: Type.Union(['acknowledged', 'alreadyAcknowledged', 'stillFiring', 'notOpen', 'unknownAlarm', 'ignored'].map((o) => Type.Literal(o))),
          alarmId: Type.Optional(Type.String()),
        }),
      ),
      400: error('Not a JSON object with an `event` holding id, event_type and occurred_at'),
      401: error(
        'Refused, nothing changed: no x-pagerduty-signature, none of its comma-separated v1= signatures matches the body, an event more than 30 minutes from now (a replay), ' +
          'or no secret configured; the message says which',
      ),
      413: error('A body larger than 64 KiB (no PagerDuty event is)'),
    },
    function: {
      timeout: 6,
      environment: {
        PAGERDUTY_WEBHOOK_SECRET_PARAM: '${self:custom.providerSecrets}/pagerduty-webhook-secret',
      },
    },
  }),
};
