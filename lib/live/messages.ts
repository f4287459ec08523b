import type { StoredChange } from '#lib/alarms/repository/changes';
import type { LiveMessage } from './types';

/** The message a stored change becomes on the socket (the shapes). */
export const messageOf = (change: StoredChange): LiveMessage => {
  if (change.kind === 'room') {
    const { region, location, room, roomStatus, deviceCount, online, offline } = change.room;
    return { type: 'room', at: change.at, room: { region, location, room, roomStatus, deviceCount, online, offline } };
  }
  return { type: 'alarm', event: change.event, at: change.at, alarm: change.alarm };
};
