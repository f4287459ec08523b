/** Notification channels and their delivery log (docs/adr/0089-notification-engine.md): invalid input is 400. */
import { LIMITS } from '#lib/watchers/types';
import { NOTIFICATION_TYPES, WEBHOOK_FORMATS, type ServiceNowInput } from '#lib/notify/types';
import { MASKED_CREDENTIAL } from '#lib/notify/servicenow/pure/channel';
import { PAGERDUTY_ROUTING_KEY_PATTERN, PAGERDUTY_ROUTING_KEY_RULE } from '#lib/notify/pagerduty/pure/events';
import { areaRoutesOf, dateTime, error, list, name, ok, oneOfValues, page, pageOf, recordRoutesOf, SINGLE_LINE, SINGLE_LINE_RULE, strict, text, Type } from './shared';

/** How notification mails leave: the same mailer as the alarm engine's. */
const mailEnvironment = '${file(./functions/alarms/mail-env.yml)}';

const channelId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of 1 to 64 letters, digits, "-" or "_"' });
const path = { id: channelId };

const emails = Type.Array(Type.String({ format: 'email', maxLength: LIMITS.email, description: 'a valid e-mail address' }), {
  minItems: 1,
  maxItems: LIMITS.emails,
  uniqueItems: true,
  description: `an array of 1 to ${LIMITS.emails} distinct e-mail addresses`,
});
const url = Type.String({ minLength: 1, maxLength: 2048, description: 'an https URL of a public host (http on loopback only with ALLOW_LOCAL_WEBHOOKS)' });
const format = oneOfValues(WEBHOOK_FORMATS, { description: 'json (default), slack or teams' });

const emailChannel = strict({ name: name(), type: Type.Literal('email'), emails });
const webhookChannel = strict({ name: name(), type: Type.Literal('webhook'), url, format: Type.Optional(format) });
const credential = (description: string) => Type.String({ minLength: 1, maxLength: 256, description });
/**
 * A user name or client id: one visible line (it is answered and shown), and a basic-auth user
 * name without ":" (RFC 7617: the first colon ends the user id, so "a:b" would sign in as "a"
 * with the password "b:<password>", and fail at every delivery).
 */
const account = (description: string, colon: boolean) =>
  Type.String({
    minLength: 1,
    maxLength: 256,
    pattern: colon ? SINGLE_LINE : SINGLE_LINE.replace('[^', '[^:'),
    description: `${description}: 1 to 256 characters ${SINGLE_LINE_RULE}${colon ? '' : ', no ":"'}`,
  });
/** Basic auth (username, password) or OAuth client credentials (clientId, clientSecret): exactly one pair, checked with a 400 naming the field. */
const serviceNowChannel = strict({
  name: name(),
  type: Type.Literal('servicenow'),
  instanceUrl: Type.String({ minLength: 1, maxLength: 2048, description: 'the instance, e.g. https://acme.service-now.com (https to a public host; http on loopback only with ALLOW_LOCAL_WEBHOOKS)' }),
  username: Type.Optional(account('basic auth: the integration user', false)),
  password: Type.Optional(credential(`basic auth: its password (answered as ${JSON.stringify(MASKED_CREDENTIAL)}; PUT that back to keep it)`)),
  clientId: Type.Optional(account('OAuth client credentials: the client id', true)),
  clientSecret: Type.Optional(credential(`OAuth client credentials: the client secret (answered as ${JSON.stringify(MASKED_CREDENTIAL)}; PUT that back to keep it)`)),
});
const pagerdutyChannel = strict({ name: name(), type: Type.Literal('pagerduty'), routingKey: Type.String({ pattern: PAGERDUTY_ROUTING_KEY_PATTERN, description: PAGERDUTY_ROUTING_KEY_RULE }) });
/** The body of POST and PUT: one of the shapes, chosen by `type`. */
const channelBody = Type.Unsafe<
  | { name: string; type: 'email'; emails: string[] }
  | { name: string; type: 'webhook'; url: string; format?: (typeof WEBHOOK_FORMATS)[number] }
  | ServiceNowInput
  | { name: string; type: 'pagerduty'; routingKey: string }
>({
  type: 'object',
  required: ['name', 'type'],
  properties: { name: name(), type: { enum: ['email', 'webhook', 'servicenow', 'pagerduty'], description: 'email, webhook, servicenow or pagerduty' } },
  if: { properties: { type: { const: 'webhook' } }, required: ['type'] },
  then: webhookChannel,
  else: {
    if: { properties: { type: { const: 'servicenow' } }, required: ['type'] },
    then: serviceNowChannel,
    else: {
      if: { properties: { type: { const: 'pagerduty' } }, required: ['type'] },
      then: pagerdutyChannel,
      else: emailChannel,
    },
  },
});

const channelFields = {
  id: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'email, webhook, servicenow or pagerduty' }),
  emails: Type.Optional(Type.Array(Type.String())),
  format: Type.Optional(Type.String()),
  instanceUrl: Type.Optional(Type.String({ description: 'servicenow: the instance' })),
  auth: Type.Optional(Type.String({ description: 'servicenow: basic or oauth' })),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String({ description: `servicenow (basic): always ${JSON.stringify(MASKED_CREDENTIAL)}, never the password` })),
  clientId: Type.Optional(Type.String()),
  clientSecret: Type.Optional(Type.String({ description: `servicenow (oauth): always ${JSON.stringify(MASKED_CREDENTIAL)}, never the secret` })),
  createdAt: dateTime,
  updatedAt: dateTime,
};
/** Every answer but create and rotate-secret: a webhook URL is a credential (Slack, Teams), so its path and query are masked. */
const channel = Type.Object({
  ...channelFields,
  routingKey: Type.Optional(
    Type.String({ description: 'pagerduty: the integration routing key masked to its last 4 characters (whole only in the create answer; PUT it back as is to keep it)' }),
  ),
  url: Type.Optional(
    Type.String({
      description: 'scheme, host and a masked path, e.g. https://hooks.slack.com/*** (the whole URL is answered only by create and rotate-secret; PUT it back as is to keep it)',
    }),
  ),
});
const withSecret = Type.Object({
  ...channelFields,
  url: Type.Optional(Type.String({ description: 'the whole webhook URL: answered only here' })),
  routingKey: Type.Optional(Type.String({ description: 'pagerduty: the whole routing key, answered only by create' })),
  secret: Type.Optional(Type.String({ description: 'the webhook signing secret: shown in this answer only' })),
});
const delivery = Type.Object({
  deliveryId: Type.String({ description: 'stable across retries; sent as x-delivery-id' }),
  type: Type.String({ description: NOTIFICATION_TYPES.join(', ') }),
  at: dateTime,
  attempts: Type.Integer({ minimum: 0 }),
  status: Type.String({ description: 'pending, delivered, retrying, failed or suppressed' }),
  lastResponseStatus: Type.Optional(Type.Integer()),
  nextAttemptAt: Type.Optional(dateTime),
});
const { api, onRecord: onChannel, invalid, unknown } = areaRoutesOf({ permission: 'channels:write', invalidStatus: 400 }, { path, invalid: 'Invalid input, each offending field named', unknown: 'No channel with that id' });

export const routes = {
  create: api('POST', 'channels', 'Create a notification channel (e-mail addresses, a signed webhook, a ServiceNow instance or a PagerDuty service)', {
    request: { body: channelBody },
    responses: { 201: ok('The channel; a webhook with its signing secret and its whole URL, a PagerDuty channel with its whole routing key, shown only here', withSecret), 400: invalid },
    idempotent: true,
  }),
  list: api('GET', 'channels', 'List the notification channels', { responses: { 200: list('Every channel (never a secret; webhook URLs masked)', channel) } }),
  get: onChannel('GET', 'channels/{id}', 'Get a notification channel', { responses: { 200: ok('The channel (never its secret; a webhook URL masked)', channel) } }),
  update: onChannel('PUT', 'channels/{id}', 'Replace a channel (full body; its type cannot change)', {
    request: { body: channelBody },
    responses: { 200: ok('The updated channel', channel) },
  }),
  remove: onChannel('DELETE', 'channels/{id}', 'Delete a channel no watcher uses', {
    responses: { 200: text('Confirmation'), 409: error('A watcher uses the channel') },
  }),
  rotateSecret: onChannel('POST', 'channels/{id}/rotate-secret', 'Issue a new signing secret for a webhook channel', {
    responses: { 200: ok('The channel with its new secret and its whole URL, shown only here', withSecret), 409: error('Not a webhook channel') },
  }),
  test: onChannel('POST', 'channels/{id}/test', 'Send a test notification through the channel now', {
    responses: { 200: ok('The delivery after its first attempt', delivery) },
    function: { timeout: 29, environment: mailEnvironment },
  }),
  // paging errors (limit, a cursor this API did not answer) are 422 as on every paginated route
  deliveries: recordRoutesOf({ permission: 'channels:write', invalidStatus: 422 }, { path, invalid, unknown })(
    'GET',
    'channels/{id}/deliveries',
    "A channel's deliveries of the last 30 days, newest first",
    { request: { query: page }, responses: { 200: ok('One page', pageOf(delivery)) } },
  ),
};
