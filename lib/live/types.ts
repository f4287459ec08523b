import type { AlarmChange } from '#lib/alarms/repository/changes';
import type { DeviceFilter } from '#lib/devices/deviceScope';
import type { RoomAggregate } from '#lib/devices/types';
import type { StatusCounts } from '#lib/shared/statusCounts';

/** What a dashboard watches: the three names of a device query, `all` = any (DESIGN D10). */
export type LiveFilter = DeviceFilter;

export type { StatusCounts } from '#lib/shared/statusCounts';

/** Every message the server sends over the socket. */
export type LiveMessage =
  | { type: 'subscribed'; filter: LiveFilter; snapshot: StatusCounts }
  | { type: 'room'; at: string; room: RoomAggregate }
  | { type: 'alarm'; event: AlarmChange['event']; at: string; alarm: AlarmChange['alarm'] }
  | { type: 'error'; message: string };

/**
 * Where pushes go: API Gateway's @connections endpoint of the WebSocket stage (lib/adapters/connections.ts).
 * `post` answers `gone` when the connection no longer exists (410) and throws when the post failed.
 */
export interface Connections {
  post(connectionId: string, data: string): Promise<'sent' | 'gone'>;
}
