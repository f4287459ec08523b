import type { Context } from 'aws-lambda';
import { HttpError } from '#lib/shared/errors';
import { logger } from '#lib/shared/log';

/** The parts of an API Gateway WebSocket event the live functions read. */
interface SocketEvent {
  requestContext: { connectionId: string; routeKey: string; requestId?: string };
  body?: string | null;
  queryStringParameters?: Record<string, string | undefined> | null;
}

/** What a route answers: on `$connect` a non-2xx status refuses the connection; elsewhere `body` goes back to the client. */
interface SocketResult {
  statusCode: number;
  body?: string;
}

type Handle = (event: SocketEvent) => Promise<SocketResult>;

/**
 * The WebSocket counterpart of lib/http: one log line per event (route, status, connection,
 * latency; never the query string, which holds the ticket), known errors answered with their
 * status and `{"type": "error", "message"}`, unknown ones logged and answered as a bare 500.
 */
export const socket =
  (handle: Handle) =>
  async (event: SocketEvent, context: Context): Promise<SocketResult> => {
    const startedAt = Date.now();
    const line = (status: number) => ({
      route: event.requestContext.routeKey,
      status,
      connectionId: event.requestContext.connectionId,
      latencyMs: Date.now() - startedAt,
      requestId: event.requestContext.requestId ?? context?.awsRequestId,
    });
    try {
      const result = await handle(event);
      logger.info('socket', line(result.statusCode));
      return result;
    } catch (error) {
      if (error instanceof HttpError) {
        const statusCode = error.statusCode ?? 400;
        logger.info('socket', { ...line(statusCode), reason: error.message });
        return { statusCode, body: JSON.stringify({ type: 'error', message: error.message }) };
      }
      logger.error('socket failed', { ...line(500), error });
      return { statusCode: 500, body: JSON.stringify({ type: 'error', message: 'Internal server error' }) };
    }
  };

/** A message for the client, answered on the route that received its request. */
export const reply = (message: unknown): SocketResult => ({ statusCode: 200, body: JSON.stringify(message) });
