import type { RoomAggregate } from './types';

/** Count answers, computed from the room aggregates in scope only (never from devices). */
const sum = (rooms: readonly RoomAggregate[], pick: (room: RoomAggregate) => number) =>
  rooms.reduce((total, room) => total + pick(room), 0);

export const totalDevices = (rooms: readonly RoomAggregate[]): [number] => [sum(rooms, (r) => r.deviceCount)];

export const devicesConnected = (rooms: readonly RoomAggregate[]): [number] => [sum(rooms, (r) => r.online)];

export const numOfDevicesByRoom = (rooms: readonly RoomAggregate[]) =>
  rooms.map((r) => ({
    name: r.room,
    deviceCount: r.deviceCount,
    onlineDeviceCount: r.online,
    offlineDeviceCount: r.offline,
  }));

export const numOfRooms = (rooms: readonly RoomAggregate[]) => ({
  totalRooms: rooms.filter((r) => r.deviceCount > 0).length,
});

export const numDevicesConnected = (rooms: readonly RoomAggregate[]) => ({
  total: sum(rooms, (r) => r.deviceCount),
  online: sum(rooms, (r) => r.online),
  offline: sum(rooms, (r) => r.offline),
});

export const roomStatusCount = (rooms: readonly RoomAggregate[]) => {
  const count = (status: RoomAggregate['roomStatus']) => rooms.filter((r) => r.roomStatus === status).length;
  return {
    TotalRooms: rooms.length,
    CriticalStatus: count('Critical'),
    MajorStatus: count('Major'),
    MinorStatus: count('Minor'),
    InfoStatus: count('Info'),
    OKStatus: count('OK'),
  };
};
