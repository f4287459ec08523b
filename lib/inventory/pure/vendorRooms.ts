import type { StoredDevice } from '#lib/devices/types';
import type { Place } from '#lib/shared/place';
import type { VendorRoomDevice } from '#lib/inventory/entities';

/*
 * The vendor room directory's entries, read off the devices a sync stores: a Zoom device's
 * `vendorRef` is `<roomId>/<locationId>[/<device type, URI-encoded>]` (lib/inventory/provider/zoom.ts).
 * Pure: lib/inventory/repository/vendorRooms.ts writes them.
 */

/** The vendors whose events name a room, and so need the directory. */
const ROOM_VENDORS = new Set(['zoom']);

/** The directory entry of a device; undefined for a device no vendor room event can name. */
type Listed = Pick<StoredDevice, 'devicesn' | 'vendor' | 'vendorRef'> & { details?: Place };

export const vendorRoomOf = (device: Listed): VendorRoomDevice | undefined => {
  if (!device.vendor || !ROOM_VENDORS.has(device.vendor) || !device.vendorRef) return undefined;
  const [room, , type] = device.vendorRef.split('/');
  if (!room) return undefined;
  let component: string | undefined;
  try {
    component = type ? decodeURIComponent(type) : undefined;
  } catch {
    component = undefined; // a malformed type names no component: room-wide events still reach the device
  }
  const place = device.details ? { region: device.details.region, location: device.details.location, room: device.details.room } : undefined;
  return { vendor: device.vendor, room, devicesn: device.devicesn, ...(component ? { component } : {}), ...(place ? { place } : {}) };
};

const entryKey = (entry: VendorRoomDevice) => JSON.stringify([entry.vendor, entry.room, entry.devicesn]);

/**
 * What a sync's writes change in the directory: the entries of the devices it puts, and the
 * removal of the entries its removed devices (and the moved ones' old rooms) had, unless put again.
 */
export const directoryChanges = (
  puts: readonly Listed[],
  gone: readonly Listed[],
): { put: VendorRoomDevice[]; remove: VendorRoomDevice[] } => {
  const put = new Map(puts.flatMap((device) => (vendorRoomOf(device) ? [vendorRoomOf(device)!] : [])).map((entry) => [entryKey(entry), entry]));
  const remove = new Map(gone.flatMap((device) => (vendorRoomOf(device) ? [vendorRoomOf(device)!] : [])).map((entry) => [entryKey(entry), entry]));
  for (const key of put.keys()) remove.delete(key);
  return { put: [...put.values()], remove: [...remove.values()] };
};

/**
 * The devices a room event concerns: those of the named component (a device type), or, for an
 * event about the room itself (no component, "Zoom room is offline"), those of the room computer
 * when the room has one, else every device of the room.
 */
export const ROOM_COMPUTER = 'Zoom Rooms Computer';
export const devicesConcerned = (entries: readonly VendorRoomDevice[], component: string | undefined): string[] => {
  if (component) return entries.filter((entry) => entry.component?.toLowerCase() === component.toLowerCase()).map((entry) => entry.devicesn);
  const computers = entries.filter((entry) => entry.component === ROOM_COMPUTER);
  return (computers.length > 0 ? computers : entries).map((entry) => entry.devicesn);
};
