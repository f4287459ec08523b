import { VendorRoomDeviceEntity, type VendorRoomDevice } from '#lib/inventory/entities';
import { queryAll } from '#lib/store/query';
import { batchWrite, deleteRequest, putRequest } from '#lib/store/table';

// The vendor room directory (lib/inventory/entities.ts "VendorRoomDevice"): one item per device, in its vendor room's partition.

/** Writes a sync's directory changes (idempotent puts and deletes, batched). */
export const writeDirectory = async (changes: { put: readonly VendorRoomDevice[]; remove: readonly VendorRoomDevice[] }): Promise<void> => {
  await batchWrite(
    [...changes.remove.map((entry) => deleteRequest(VendorRoomDeviceEntity.key(entry))), ...changes.put.map((entry) => putRequest(VendorRoomDeviceEntity.item(entry, { ...entry })))],
    { inFlight: 4 },
  );
};

/** The devices the directory lists for a vendor room (one Query of its partition, consistent). */
export const devicesOfRoom = async (vendor: string, room: string): Promise<VendorRoomDevice[]> =>
  (await queryAll({ pk: VendorRoomDeviceEntity.key({ vendor, room, devicesn: '' }).PK, consistent: true })).map(VendorRoomDeviceEntity.fromItem);
