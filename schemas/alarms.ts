import { MAX_SEVERITY, MIN_SEVERITY } from '#lib/watchers/rules';
import { error, event, name, type AnswerDoc, type RouteDoc, type Schema } from './common';

const page = {
  limit: { type: 'string', pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'an integer from 1 to 1000' },
  cursor: { type: 'string', minLength: 1, maxLength: 2048, description: 'a nextCursor this API answered' },
};

export const events = {
  alarmsList: event({
    query: {
      region: name(),
      location: name(),
      room: name(),
      severity: { type: 'string', pattern: `^[${MIN_SEVERITY}-${MAX_SEVERITY}]$`, description: `an integer from ${MIN_SEVERITY} to ${MAX_SEVERITY}` },
      watcherId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'an id of 1 to 64 letters, digits, "-" or "_"' },
      ...page,
    },
  }),
  alarmsOutbox: event({
    query: { to: { type: 'string', minLength: 3, maxLength: 254, description: 'an e-mail address' }, ...page },
  }),
};

const alarm: Schema = {
  type: 'object',
  required: ['id', 'watcherId', 'severity', 'devicesn', 'deviceid', 'region', 'location', 'room', 'raisedAt'],
  properties: {
    id: { type: 'string', description: 'watcherId:devicesn' },
    watcherId: { type: 'string' },
    severity: { type: 'integer', minimum: MIN_SEVERITY, maximum: MAX_SEVERITY, description: '1 Critical, 2 Major, 3 Minor, 4 Info' },
    devicesn: { type: 'string' },
    deviceid: { type: 'string' },
    region: { type: 'string' },
    location: { type: 'string' },
    room: { type: 'string' },
    raisedAt: { type: 'string', format: 'date-time' },
    description: { type: 'string' },
  },
};
const mail: Schema = {
  type: 'object',
  required: ['id', 'to', 'subject', 'text', 'storedAt'],
  properties: {
    id: { type: 'string' },
    to: { type: 'array', items: { type: 'string' } },
    subject: { type: 'string' },
    text: { type: 'string' },
    html: { type: 'string', description: 'the HTML part, when the mail has one' },
    storedAt: { type: 'string', format: 'date-time' },
  },
};
const listOrPage = (item: Schema, what: string): AnswerDoc => ({
  description: `${what}, newest first: a bare array, or with ?limit / ?cursor one page {items, nextCursor}`,
  schema: {
    oneOf: [
      { type: 'array', items: item },
      { type: 'object', required: ['items', 'nextCursor'], properties: { items: { type: 'array', items: item }, nextCursor: { type: ['string', 'null'] } } },
    ],
  },
});

export const docs: Record<string, RouteDoc> = {
  alarmsList: {
    summary: 'Open alarms (why a room is not OK), filterable by region, location, room, severity and watcherId',
    answers: { 200: listOrPage(alarm, 'Open alarms'), 422: error('Invalid filter, limit or cursor, each offending field named') },
  },
  alarmsEvaluate: {
    summary: 'Evaluate every active watcher now (operators, tests); answers what changed',
    answers: {
      200: {
        description: 'Transitions of this run; complete is false when the run hit intervalDeviceWatchersTimeout',
        schema: {
          type: 'object',
          required: ['raised', 'cleared', 'mailed', 'notifications', 'updated', 'roomsRecomputed', 'complete'],
          properties: {
            raised: { type: 'integer' },
            cleared: { type: 'integer' },
            mailed: { type: 'integer', description: 'mails delivered this run (digests)' },
            notifications: {
              type: 'object',
              description: 'what the notification engine did: deliveries stored (digests x targets), delivered, due again, failed, suppressed',
              required: ['digests', 'delivered', 'mailed', 'retrying', 'failed', 'suppressed', 'complete'],
              properties: {
                digests: { type: 'integer' },
                delivered: { type: 'integer' },
                mailed: { type: 'integer' },
                retrying: { type: 'integer' },
                failed: { type: 'integer' },
                suppressed: { type: 'integer' },
                complete: { type: 'boolean' },
              },
            },
            updated: { type: 'integer' },
            roomsRecomputed: { type: 'integer' },
            complete: { type: 'boolean' },
          },
        },
      },
      409: error('Another evaluation is running; retry in a few seconds'),
    },
  },
  alarmsOutbox: {
    summary: 'Mails of the local outbox (MAILER=outbox), optionally only those to one address',
    answers: { 200: listOrPage(mail, 'Stored mails'), 422: error('Invalid address, limit or cursor') },
  },
};
