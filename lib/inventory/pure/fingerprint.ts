import { createHash } from 'node:crypto';
import { vendorFactsKey, type ProviderDevice } from '#lib/devices/types';

/*
 * Fingerprints of the synced fields (what a sync compares: identity, model, status, place), so
 * that a sync can tell which rooms changed without reading the stored devices. Names hold no
 * control characters (lib/inventory/pure/names.ts), so the separators below cannot be forged.
 */
const hashOf = (lines: string[]): string => createHash('sha1').update(lines.sort().join('\n')).digest('base64url').slice(0, 16);

/** A room's fingerprint: a hash of its devices' synced fields, and how many they are. */
export const roomFingerprint = (members: readonly ProviderDevice[]): string =>
  `${hashOf(members.map((d) => [d.devicesn, d.deviceid, d.devicemodel, d.status.connected ? '1' : '0', d.status.inCallStatus, ...vendorPart(d)].join('\u0000')))}.${members.length}`;

/** The vendor's facts, for a device that has any (a device without keeps the fingerprint it always had). */
const vendorPart = (device: ProviderDevice): string[] => {
  const key = vendorFactsKey(device);
  return key === '' ? [] : [key];
};

/** A bucket's hash from its rooms' fingerprints; undefined for a bucket without rooms. */
export const bucketHash = (rooms: ReadonlyMap<string, string>): string | undefined =>
  rooms.size === 0 ? undefined : hashOf([...rooms].map(([room, fingerprint]) => `${room}\u0000${fingerprint}`));

/** Rooms whose fingerprint differs between two views of one bucket (either side may lack a room). */
export const differingRooms = (provider: ReadonlyMap<string, string>, stored: ReadonlyMap<string, string>): string[] =>
  [...new Set([...provider.keys(), ...stored.keys()])].filter((room) => provider.get(room) !== stored.get(room));

export const sameEntries = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean =>
  a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
