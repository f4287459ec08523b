import { randomBytes } from 'node:crypto';
import * as liveConnections from '#lib/live/repository/connections';
import * as liveTickets from '#lib/live/repository/tickets';
import { roomsWithin } from '#lib/devices/access';
import { filterScopeOf } from '#lib/devices/deviceScope';
import { roomStatusCount } from '#lib/devices/stats';
import type { Connection } from '#lib/live/repository/connections';
import { Conflict, Invalid, ServiceUnavailable, TooManyRequests, Unauthorized } from '#lib/shared/errors';
import type { AccessScope } from '#lib/shared/access';
import { malformedStrings, requireShallow } from '#lib/shared/json';
import { describeSchemaErrors, summarize, type CompiledValidator } from '#lib/shared/validation';
import { EVERYTHING, filterScopeKey } from './scope';
import type { LiveFilter, LiveMessage } from './types';

/** A ticket opens one connection within this time, so a ticket read from a log or a URL is soon worthless. */
const TICKET_SECONDS = 60;
/** API Gateway closes a WebSocket after 2 hours; a connection's records outlive it a little. */
const CONNECTION_SECONDS = 2 * 60 * 60 + 60;
const TICKET_BYTES = 32;
const MAX_TICKET_LENGTH = 256;

interface Ticket {
  ticket: string;
  url: string;
  expiresAt: string;
}

/**
 * POST /live/ticket: a random one-use ticket for `filter`, and the socket address carrying it.
 * The ticket carries the scope of the principal it is issued to (`access`): the connection it
 * opens hears only of rooms within it, whatever it subscribes to.
 */
export const issueTicket = async (filter: LiveFilter = EVERYTHING, socketUrl = process.env.LIVE_WS_URL, access: AccessScope = []): Promise<Ticket> => {
  if (!socketUrl) throw new ServiceUnavailable('Live updates are not configured on this deployment (LIVE_WS_URL)', 60);
  const ticket = randomBytes(TICKET_BYTES).toString('base64url');
  const validUntil = Date.now() + TICKET_SECONDS * 1000;
  await liveTickets.store(ticket, filter, validUntil, access);
  const url = new URL(socketUrl);
  url.searchParams.set('ticket', ticket);
  return { ticket, url: url.toString(), expiresAt: new Date(validUntil).toISOString() };
};

/** $connect: only with a valid, unused, unexpired ticket; the connection starts on the ticket's filter, within its scope. */
export const connect = async (connectionId: string, ticket: string | undefined): Promise<void> => {
  const redeemed = ticket && ticket.length <= MAX_TICKET_LENGTH ? await liveTickets.redeem(ticket) : undefined;
  if (!redeemed) throw new Unauthorized('A valid, unused ticket from POST /live/ticket is required (query parameter "ticket")');
  const { filter, access } = redeemed;
  await liveConnections.open(connectionId, { filter, scopeKey: filterScopeKey(filter) }, Math.floor(Date.now() / 1000) + CONNECTION_SECONDS, access);
};

export const disconnect = (connectionId: string): Promise<void> => liveConnections.close(connectionId);

/**
 * Messages one connection may send per window (500 subscribes from one socket
 * starved the store). `LIVE_MAX_MESSAGES` per 10 s, default 10: a board sends one per scope change.
 */
export const MESSAGE_WINDOW_SECONDS = 10;
const maxMessages = (env: NodeJS.ProcessEnv = process.env): number => {
  const value = Number(env.LIVE_MAX_MESSAGES);
  return Number.isInteger(value) && value > 0 ? value : 10;
};

const notRegistered = () => new Invalid('This connection is no longer registered; open a new one with a fresh ticket');

/**
 * Every message first: counted against its connection's rate (stored on the connection item, so
 * it holds across Lambda invocations); over the rate, 429 "slow down" and nothing else is done.
 * Answers the connection as stored.
 */
export const admit = async (connectionId: string, now = Date.now()): Promise<Connection> => {
  const seconds = Math.floor(now / 1000);
  const window = seconds - (seconds % MESSAGE_WINDOW_SECONDS);
  const connection = await liveConnections.admitMessage(connectionId, window);
  if (!connection) throw notRegistered();
  const max = maxMessages();
  if ((connection.messages ?? 0) > max) {
    const wait = window + MESSAGE_WINDOW_SECONDS - seconds;
    throw new TooManyRequests(`Too many messages on this connection: slow down (at most ${max} per ${MESSAGE_WINDOW_SECONDS} s; send again in ${wait} s)`, wait);
  }
  return connection;
};

const parse = (body: string | null | undefined): unknown => {
  requireShallow(body ?? '', 'message');
  try {
    return JSON.parse(body ?? '');
  } catch {
    throw new Invalid('The message is not valid JSON; send {"action": "subscribe", "filter": {regionName, locationName, roomName}}');
  }
};

/** A move that lost to another message of the same connection is tried again this often. */
const MOVE_ATTEMPTS = 3;

/**
 * `subscribe`: moves the connection to the message's scope and answers that scope's
 * roomStatusCount (within the connection's own scope, `access`). `current` is the connection as
 * `admit` answered it (saves a read).
 */
export const subscribe = async (
  connectionId: string,
  body: string | null | undefined,
  validate: CompiledValidator,
  current?: Connection,
): Promise<LiveMessage> => {
  const message = parse(body);
  if (!validate(message)) throw new Invalid(summarize(describeSchemaErrors(validate.errors)));
  const { filter } = message as { filter: LiveFilter };
  const malformed = malformedStrings(filter, 'filter');
  if (malformed.length > 0) throw new Invalid(malformed.map((field) => `${field} must be well-formed Unicode (no lone surrogates)`).join('; '));
  const scope = { filter, scopeKey: filterScopeKey(filter) };
  const connection = current ?? (await liveConnections.find(connectionId));
  if (!connection) throw notRegistered();
  for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
    const outcome = await liveConnections.move(connectionId, scope, attempt === 0 ? connection : undefined);
    if (outcome === 'gone') throw notRegistered();
    if (outcome === 'moved') return { type: 'subscribed', filter, snapshot: roomStatusCount(await roomsWithin(filterScopeOf(filter), connection.access ?? [])) };
  }
  throw new Conflict('Other messages of this connection kept changing its scope meanwhile; send the subscribe again');
};
