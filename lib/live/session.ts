import { randomBytes } from 'node:crypto';
import * as liveConnections from '#lib/db/liveConnections';
import * as liveTickets from '#lib/db/liveTickets';
import * as rooms from '#lib/db/rooms';
import { scopeOf } from '#lib/devices/deviceScope';
import { roomStatusCount } from '#lib/devices/stats';
import type { Connection } from '#lib/db/liveConnections';
import { Conflict, Invalid, ServiceUnavailable, Unauthorized } from '#lib/errors';
import { describeSchemaErrors, summarize, type CompiledValidator } from '#lib/shared/validation';
import { EVERYTHING, scopeKey } from './scope';
import type { LiveFilter, LiveMessage } from './types';

/** A ticket opens one connection within this time (issue 17: 60 s). */
export const TICKET_SECONDS = 60;
/** API Gateway closes a WebSocket after 2 hours; a connection's records outlive it a little. */
export const CONNECTION_SECONDS = 2 * 60 * 60 + 60;
const TICKET_BYTES = 32;
const MAX_TICKET_LENGTH = 256;

export interface Ticket {
  ticket: string;
  url: string;
  expiresAt: string;
}

/** POST /live/ticket: a random one-use ticket for `filter`, and the socket address carrying it. */
export const issueTicket = async (filter: LiveFilter = EVERYTHING, socketUrl = process.env.LIVE_WS_URL): Promise<Ticket> => {
  if (!socketUrl) throw new ServiceUnavailable('Live updates are not configured on this deployment (LIVE_WS_URL)', 60);
  const ticket = randomBytes(TICKET_BYTES).toString('base64url');
  const validUntil = Date.now() + TICKET_SECONDS * 1000;
  await liveTickets.store(ticket, filter, validUntil);
  const url = new URL(socketUrl);
  url.searchParams.set('ticket', ticket);
  return { ticket, url: url.toString(), expiresAt: new Date(validUntil).toISOString() };
};

/** $connect: only with a valid, unused, unexpired ticket; the connection starts on the ticket's scope. */
export const connect = async (connectionId: string, ticket: string | undefined): Promise<void> => {
  const filter = ticket && ticket.length <= MAX_TICKET_LENGTH ? await liveTickets.redeem(ticket) : undefined;
  if (!filter) throw new Unauthorized('A valid, unused ticket from POST /live/ticket is required (query parameter "ticket")');
  await liveConnections.open(connectionId, { filter, scopeKey: scopeKey(filter) }, Math.floor(Date.now() / 1000) + CONNECTION_SECONDS);
};

export const disconnect = (connectionId: string): Promise<void> => liveConnections.close(connectionId);

const notRegistered = () => new Invalid('This connection is no longer registered; open a new one with a fresh ticket');

const parse = (body: string | null | undefined): unknown => {
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
 * roomStatusCount. `current` is the connection as just read, if it was (saves a read).
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
  const scope = { filter, scopeKey: scopeKey(filter) };
  for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
    const outcome = await liveConnections.move(connectionId, scope, attempt === 0 ? current : undefined);
    if (outcome === 'gone') throw notRegistered();
    if (outcome === 'moved') return { type: 'subscribed', filter, snapshot: roomStatusCount(await rooms.inScope(scopeOf(filter))) };
  }
  throw new Conflict('Other messages of this connection kept changing its scope meanwhile; send the subscribe again');
};
