import type { OpenAlarm } from '#lib/alarms/types';
import { roomKey, type Place, type RoomAggregate, type Severity, type StoredDevice } from '#lib/devices/types';
import { roomsToRecompute, worstSeverityByDevice } from './plan';

interface RepairPlan {
  /** Devices whose stored severity is not the worst of their firing alarms. */
  severities: { device: Pick<StoredDevice, 'devicesn' | 'details'>; severity: Severity | undefined }[];
  /** Rooms to recompute: those of the devices above and any whose stored status disagrees. */
  rooms: Place[];
}

/**
 * What makes room statuses agree with the open alarms again, e.g. after a run was killed
 * between its alarm writes and its room writes. Raises and clears nothing: the open alarms
 * are the truth here, and only the firing ones count (worstSeverityByDevice).
 */
export const planRepair = (input: {
  devices: readonly StoredDevice[];
  open: readonly Pick<OpenAlarm, 'devicesn' | 'severity' | 'state'>[];
  rooms: readonly RoomAggregate[];
}): RepairPlan => {
  const worst = worstSeverityByDevice(input.open);
  const severities = input.devices
    .filter((device) => device.alarmSeverity !== worst.get(device.devicesn))
    .map((device) => ({ device, severity: worst.get(device.devicesn) }));
  const rooms = new Map<string, Place>(severities.map(({ device }) => [roomKey(device.details), device.details]));
  for (const room of roomsToRecompute(input.rooms, input.devices, worst)) rooms.set(roomKey(room), room);
  return { severities, rooms: [...rooms.values()] };
};
