import { createHash } from 'node:crypto';
import { DEVICE_FIELDS, fieldsOf, fieldValue, isPlace, isSynced, type FieldSpec } from '#lib/devices/model';
import type { ProviderDevice } from '#lib/devices/types';

/*
 * Fingerprints of the synced fields (every field the provider or the sync writes, lib/devices/model.ts;
 * the place is the room's key), so that a sync can tell which rooms changed without reading the
 * stored devices. Names hold no control characters (lib/inventory/pure/names.ts), so the
 * separators below cannot be forged.
 */
const hashOf = (lines: string[]): string => createHash('sha1').update(lines.sort().join('\n')).digest('base64url').slice(0, 16);

const SYNCED = fieldsOf(DEVICE_FIELDS, (spec) => isSynced(spec) && !isPlace(spec)).map(([, spec]) => spec);
/**
 * The fields every device has, serial number first (the line's identity), joined by NUL; then the
 * optional ones as one JSON list, for a device that has any. A device without optional fields
 * keeps the fingerprint it always had, and the lines are those fingerprints already stored hold.
 */
const REQUIRED = [...SYNCED.filter((spec) => spec.path === 'devicesn'), ...SYNCED.filter((spec) => spec.required && spec.path !== 'devicesn')];
const OPTIONAL = SYNCED.filter((spec) => !spec.required);

const requiredText = (device: ProviderDevice, spec: FieldSpec): string => {
  const value = fieldValue(device, spec);
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
};

const line = (device: ProviderDevice): string => {
  const optional = OPTIONAL.map((spec) => fieldValue(device, spec));
  const facts = optional.some((value) => value !== undefined) ? [JSON.stringify(optional)] : [];
  return [...REQUIRED.map((spec) => requiredText(device, spec)), ...facts].join('\u0000');
};

/** A room's fingerprint: a hash of its devices' synced fields, and how many they are. */
export const roomFingerprint = (members: readonly ProviderDevice[]): string => `${hashOf(members.map(line))}.${members.length}`;

/** A bucket's hash from its rooms' fingerprints; undefined for a bucket without rooms. */
export const bucketHash = (rooms: ReadonlyMap<string, string>): string | undefined =>
  rooms.size === 0 ? undefined : hashOf([...rooms].map(([room, fingerprint]) => `${room}\u0000${fingerprint}`));

/** Rooms whose fingerprint differs between two views of one bucket (either side may lack a room). */
export const differingRooms = (provider: ReadonlyMap<string, string>, stored: ReadonlyMap<string, string>): string[] =>
  [...new Set([...provider.keys(), ...stored.keys()])].filter((room) => provider.get(room) !== stored.get(room));

export const sameEntries = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean =>
  a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
