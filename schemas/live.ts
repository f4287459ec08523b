/**
 * Live dashboards (docs/adr/0098-live-websocket-api-shape.md). The WebSocket API: a browser opens the
 * `url` of POST /live/ticket (a one-use ticket in its query, since browsers cannot set headers
 * on a WebSocket); `subscribe` messages change the connection's scope and answer on the same
 * route ($default route response). Pushes come from the functions that store changes.
 */
import { job, route } from '#lib/http/contract';
import { dateTime, error, list, oneOfValues, strict, Type } from './shared';
import { deviceFilter } from './devices';
import { maintenanceMark } from './maintenance';

const integer = Type.Integer({ minimum: 0 });
const room = Type.Object({
  region: Type.String(),
  location: Type.String(),
  room: Type.String(),
  roomStatus: oneOfValues(['Critical', 'Major', 'Minor', 'Info', 'OK']),
  deviceCount: integer,
  online: integer,
  offline: integer,
  inMaintenance: Type.Optional(maintenanceMark.inMaintenance),
  maintenance: Type.Optional(maintenanceMark.maintenance),
});
const invalid = error('The filter is invalid, its fields named');

export const routes = {
  ticket: route({
    method: 'POST',
    path: 'live/ticket',
    summary: 'A one-use ticket (60 s) to open the live WebSocket; `url` is the address to open, ticket included',
    permission: 'fleet:read',
    invalidStatus: 422,
    // no body (it arrives as undefined), `{}`, or `{"filter": <device filter>}`
    request: { body: strict({ filter: Type.Optional(deviceFilter) }), bodyOptional: true },
    responses: {
      201: {
        description: 'The ticket, the ws(s):// address with the ticket in its query, and when the ticket expires',
        schema: Type.Object({ ticket: Type.String(), url: Type.String(), expiresAt: dateTime }),
      },
      422: invalid,
    },
  }),
  rooms: route({
    method: 'POST',
    path: 'live/rooms',
    summary: 'Every room in scope with its status and counts (what a status board draws; pushes carry the same shape)',
    permission: 'fleet:read',
    invalidStatus: 422,
    request: { body: deviceFilter },
    responses: { 200: list('One item per room holding devices, ordered by region, location, room', room), 422: invalid },
  }),
};

export const jobs = {
  connect: job({ summary: 'WebSocket $connect with a ticket', events: [{ websocket: { route: '$connect' } }] }),
  disconnect: job({ summary: 'WebSocket $disconnect', events: [{ websocket: { route: '$disconnect' } }] }),
  message: job({
    summary: 'WebSocket messages: subscribe, anything else answers an error',
    events: [
      { websocket: { route: 'subscribe', routeResponseSelectionExpression: '$default' } },
      { websocket: { route: '$default', routeResponseSelectionExpression: '$default' } },
    ],
    // A `subscribe` message on the socket (validated as the message itself, not as an event).
    validates: strict({ action: Type.Unsafe<'subscribe'>({ const: 'subscribe' }), filter: deviceFilter }),
  }),
};
