import { onStored, type StoredChange } from '#lib/db/changes';
import { liveConnections, type Subscriber } from '#lib/db/live';
import { mapConcurrent } from '#lib/shared/concurrency';
import type { Place } from '#lib/devices/types';
import { logger } from '#lib/log';
import { recordWork } from '#lib/observability/metrics';
import { messageOf } from './messages';
import { scopeKeysOf } from './scope';

/*
 * Pushes every stored room or alarm change to the connections whose scope holds its room
 * (docs/decisions.md "Live"). Cost per change: one Query per scope key containing the room
 * (at most 8) and one PostToConnection per subscriber, in parallel: O(connections in scope).
 * The API Gateway management client is loaded on the first push only and is not bundled
 * (serverless.yml `esbuild.exclude`; Lambda's runtime SDK provides it).
 */
const IN_FLIGHT = 32;

export interface PushResult {
  subscribers: number;
  delivered: number;
  gone: number;
  failed: number;
}

type Post = (connectionId: string, data: string) => Promise<unknown>;
const clients = new Map<string, Promise<Post>>();

/** One management client per endpoint, built on first use; a push gives up on a connection after 3 s. */
const managementClient = (endpoint: string): Promise<Post> => {
  let post = clients.get(endpoint);
  if (!post) {
    post = import('@aws-sdk/client-apigatewaymanagementapi').then(({ ApiGatewayManagementApiClient, PostToConnectionCommand }) => {
      const api = new ApiGatewayManagementApiClient({ endpoint, maxAttempts: 2, requestHandler: { requestTimeout: 3000, connectionTimeout: 1000 } });
      return (ConnectionId: string, data: string) => api.send(new PostToConnectionCommand({ ConnectionId, Data: data }));
    });
    clients.set(endpoint, post);
  }
  return post;
};

/** A connection that no longer exists: API Gateway answers 410 Gone. */
const isGone = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'GoneException' || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410);

/** Sends one message to every subscriber of the scopes holding `place`; forgets the ones that are gone. */
export const pushTo = async (endpoint: string, place: Place, message: unknown): Promise<PushResult> => {
  const subscribers = await liveConnections.subscribers(scopeKeysOf(place));
  const result: PushResult = { subscribers: subscribers.length, delivered: 0, gone: 0, failed: 0 };
  if (subscribers.length === 0) return result;
  const post = await managementClient(endpoint);
  const data = JSON.stringify(message);
  await mapConcurrent(subscribers, IN_FLIGHT, async ({ connectionId, scopeKey }: Subscriber) => {
    try {
      await post(connectionId, data);
      result.delivered++;
    } catch (error) {
      if (isGone(error)) {
        result.gone++;
        await liveConnections.close(connectionId, scopeKey);
      } else {
        result.failed++;
        logger.warn('live push failed', { connectionId, error: error instanceof Error ? error.name : String(error) });
      }
    }
  });
  return result;
};

const enabled = new Set<string>();

const placeOf = (change: StoredChange): Place => (change.kind === 'room' ? change.room : change.alarm);

/**
 * Subscribes the push to every change this process stores, when LIVE_PUSH_ENDPOINT (the
 * WebSocket API's management endpoint) is set. Called once by each function that writes room
 * aggregates or alarms, and by `npm start` for its local sync and evaluator.
 */
export const enableLivePush = (endpoint = process.env.LIVE_PUSH_ENDPOINT): boolean => {
  if (!endpoint || enabled.has(endpoint)) return Boolean(endpoint);
  enabled.add(endpoint);
  onStored(async (change) => {
    try {
      const result = await pushTo(endpoint, placeOf(change), messageOf(change));
      if (result.subscribers > 0) {
        await recordWork('live', { PushesSent: result.delivered, ConnectionsGone: result.gone, PushesFailed: result.failed });
      }
    } catch (error) {
      // the change is stored; a dashboard that missed it catches up on its next snapshot
      logger.error('live push failed', { kind: change.kind, error: error instanceof Error ? error.message : String(error) });
    }
  });
  return true;
};
