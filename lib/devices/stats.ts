import { countRooms } from '#lib/rollups/pure/summary';
import type { Counts, RoomAggregate } from './types';

/*
 * Count answers, from the room aggregates in scope or from a scope's maintained summary
 * (both are `Counts` in the end); never from devices.
 */
type Source = readonly RoomAggregate[] | Counts;
const counts = (source: Source): Counts => (Array.isArray(source) ? countRooms(source as readonly RoomAggregate[]) : (source as Counts));

export const totalDevices = (source: Source): [number] => [counts(source).deviceCount];

export const devicesConnected = (source: Source): [number] => [counts(source).online];

export const numOfDevicesByRoom = (rooms: readonly RoomAggregate[]) =>
  rooms.map((r) => ({
    name: r.room,
    deviceCount: r.deviceCount,
    onlineDeviceCount: r.online,
    offlineDeviceCount: r.offline,
  }));

export const numOfRooms = (source: Source) => ({ totalRooms: counts(source).rooms });

export const numDevicesConnected = (source: Source) => {
  const { deviceCount, online, offline } = counts(source);
  return { total: deviceCount, online, offline };
};

export const roomStatusCount = (source: Source) => {
  const { rooms, Critical, Major, Minor, Info, OK } = counts(source);
  return { TotalRooms: rooms, CriticalStatus: Critical, MajorStatus: Major, MinorStatus: Minor, InfoStatus: Info, OKStatus: OK };
};
