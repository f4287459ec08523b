import { deviceFilter } from './devices';
import { error, event, type RouteDoc, type Schema } from './common';

/** POST /live/ticket: no body (it arrives as undefined), `{}`, or `{"filter": <device filter>}`. */
const ticketBody: Schema = { type: 'object', additionalProperties: false, properties: { filter: deviceFilter } };

/** A `subscribe` message on the socket (validated as the message itself, not as an event). */
const subscribeMessage: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['action', 'filter'],
  properties: { action: { const: 'subscribe' }, filter: deviceFilter },
};

export const events = {
  liveTicket: { type: 'object', properties: { body: ticketBody } },
  liveRooms: event({ body: deviceFilter }),
  liveSubscribe: subscribeMessage,
};

const integer: Schema = { type: 'integer', minimum: 0 };
const room: Schema = {
  type: 'object',
  required: ['region', 'location', 'room', 'roomStatus', 'deviceCount', 'online', 'offline'],
  properties: {
    region: { type: 'string' },
    location: { type: 'string' },
    room: { type: 'string' },
    roomStatus: { enum: ['Critical', 'Major', 'Minor', 'Info', 'OK'] },
    deviceCount: integer,
    online: integer,
    offline: integer,
  },
};
const invalid = error('The filter is invalid, its fields named');

export const docs: Record<string, RouteDoc> = {
  liveTicket: {
    summary: 'A one-use ticket (60 s) to open the live WebSocket; `url` is the address to open, ticket included',
    answers: {
      201: {
        description: 'The ticket, the ws(s):// address with the ticket in its query, and when the ticket expires',
        schema: {
          type: 'object',
          required: ['ticket', 'url', 'expiresAt'],
          properties: { ticket: { type: 'string' }, url: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } },
        },
      },
      422: invalid,
    },
  },
  liveRooms: {
    summary: 'Every room in scope with its status and counts (what a status board draws; pushes carry the same shape)',
    answers: {
      200: { description: 'One item per room holding devices, ordered by region, location, room', schema: { type: 'array', items: room } },
      422: invalid,
    },
  },
};
