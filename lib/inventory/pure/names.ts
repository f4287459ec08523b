import { ALL } from '#lib/devices/deviceScope';
import { oversizedField } from '#lib/store/placeKeys';
import { DEVICE_FIELDS, fieldsOf, valueAt, type Bound, type FieldSpec } from '#lib/devices/model';
import type { ProviderDevice } from '#lib/devices/types';
import { INVISIBLE, PLAIN, stripInvisible } from '#lib/shared/text';

export { stripInvisible };

/*
 * The bounds of every field a provider gives us (docs/data-model.md "Vendor fields and their
 * bounds", docs/guide/rules/inventory.md "Every vendor field bounded from one table: keys skip the device, text is cut"), declared once and applied to each device before it is stored, by the
 * sync and by a refresh alike. A key field (one that identifies the device or places it: serial
 * number, vendor id, the place names) that cannot be used skips the device, which is counted by
 * reason; a descriptive field is cleaned and cut to its bound, and counted as adjusted. So one
 * hostile record never makes an item too large to store, and never stops the rest of a listing.
 */

/** Lone surrogates (not Unicode text) and control characters (C0, DEL, C1): never part of a name. */
const UNFIT = /[\p{Cs}\p{Cc}]/u;
const UNFIT_ALL = /[\p{Cs}\p{Cc}]+/gu;

type Declared = typeof DEVICE_FIELDS;
/** A bounded field, named by its path in a device (`vendorDetails.software`). */
type Field = { [K in keyof Declared]: Declared[K] extends { bound: Bound } ? Declared[K]['path'] : never }[keyof Declared];

/** Every field a provider fills, with its bound (the device model's; the documented table: docs/data-model.md). */
export const FIELD_BOUNDS = Object.fromEntries(fieldsOf(DEVICE_FIELDS, (spec) => spec.bound !== undefined).map(([, spec]) => [spec.path, spec.bound!])) as Record<Field, Bound>;
/** The descriptive fields, cleaned and cut (a key or place field is checked instead). */
const TEXTS = fieldsOf(DEVICE_FIELDS, (spec) => spec.bound?.kind === 'text').map(([, spec]) => spec as FieldSpec & { path: Field });

/** At most this many items of a list (error codes) are kept of one device (the first, in the provider's order). */
export const MAX_ERROR_CODES = 32;
/** What a cut text ends with, so that a reader sees it was cut. */
const ELLIPSIS = '…';

/** The name a place named `all` gets: `all` means every place to a filter (docs/guide/rules/inventory.md "A vendor place named `all` is stored as `all (<vendor>)`"). */
export const reservedPlaceName = (vendor: string | undefined): string => `${ALL} (${vendor ?? 'vendor'})`;

/** Why a device was skipped: `<reason>:<field>`, reason `unfit` (control, lone surrogate or invisible character in a key), `empty` or `tooLong`. */
export type SkipReason = `${'unfit' | 'empty' | 'tooLong'}:${Field}`;
/** How a stored field was changed: `truncated`, `cleaned` (control or invisible characters removed), `stripped` (invisible characters of a name), `renamed` (a place named `all`), `dropped` (a lastSeen that is no time). */
export type Adjustment = `${'truncated' | 'cleaned' | 'stripped' | 'renamed' | 'dropped'}:${Field}`;

export type BoundedDevice = { device: ProviderDevice; adjusted: Adjustment[] } | { skip: SkipReason; field: Field };

const length = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** `text` cut to `max` code points, the last one an ellipsis; as is when it fits. */
export const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text;
  if (length(text) <= max) return text;
  let kept = '';
  let n = 0;
  for (const char of text) {
    if (++n >= max) break;
    kept += char;
  }
  return kept + ELLIPSIS;
};

/** A key field: usable as is, or the reason it is not. */
const keyProblem = (field: Field, value: string): SkipReason | undefined => {
  if (value === '') return `empty:${field}`;
  if (!PLAIN.test(value) && (UNFIT.test(value) || INVISIBLE.test(value))) return `unfit:${field}`;
  // a string's UTF-16 length is at least its characters': counted only when it might be over
  if (value.length > FIELD_BOUNDS[field].max && length(value) > FIELD_BOUNDS[field].max) return `tooLong:${field}`;
  return undefined;
};

/**
 * One provider device within its bounds: key fields checked (the first unusable one skips the
 * device), place names stripped of invisible characters and a place named `all` renamed, text
 * fields cleaned and cut. A device already within its bounds comes back equal, and unadjusted.
 */
export const boundDevice = (input: ProviderDevice): BoundedDevice => {
  const adjusted: Adjustment[] = [];
  for (const field of ['devicesn', 'deviceid'] as const) {
    const skip = keyProblem(field, input[field]);
    if (skip) return { skip, field };
  }
  if (input.vendorRef !== undefined) {
    const skip = keyProblem('vendorRef', input.vendorRef);
    if (skip) return { skip, field: 'vendorRef' };
  }
  const place = { ...input.details };
  for (const level of ['region', 'location', 'room'] as const) {
    const field = `details.${level}` as const;
    const raw = input.details[level];
    if (!PLAIN.test(raw) && UNFIT.test(raw)) return { skip: `unfit:${field}`, field };
    let value = stripInvisible(raw);
    if (value !== raw) adjusted.push(`stripped:${field}`);
    // nothing visible left: no filter could name it (and a blank name reads as none)
    if (value.trim() === '') return { skip: `empty:${field}`, field };
    if (value === ALL) {
      value = reservedPlaceName(input.vendor);
      adjusted.push(`renamed:${field}`);
    }
    if (value.length > FIELD_BOUNDS[field].max && length(value) > FIELD_BOUNDS[field].max) return { skip: `tooLong:${field}`, field };
    place[level] = value;
  }
  // a place that fits its bound may still not fit the keys it is stored under (URI-encoded)
  const oversized = oversizedField({ devicesn: input.devicesn, details: place }) as Field | undefined;
  if (oversized) return { skip: `tooLong:${oversized}`, field: oversized };

  const text = (field: Field, value: string): string => {
    const cleaned = PLAIN.test(value) ? value : stripInvisible(UNFIT.test(value) ? value.replace(UNFIT_ALL, ' ') : value);
    if (cleaned !== value) adjusted.push(`cleaned:${field}`);
    const cut = truncate(cleaned, FIELD_BOUNDS[field].max);
    if (cut !== cleaned) adjusted.push(`truncated:${field}`);
    return cut;
  };
  const device = { ...input, status: { ...input.status }, details: place, ...(input.vendorDetails ? { vendorDetails: { ...input.vendorDetails } } : {}) };
  for (const spec of TEXTS) boundText(device, spec, text, adjusted);
  device.devicemodel ||= 'unknown';
  // one count per device and kind of change, however many of its error codes were changed
  return { device, adjusted: [...new Set(adjusted)] };
};

/** Puts one descriptive field of `device` within its bound: a text cleaned and cut, a list cut too, a time kept whole or dropped. */
const boundText = (device: ProviderDevice, spec: FieldSpec & { path: Field }, text: (field: Field, value: string) => string, adjusted: Adjustment[]): void => {
  const value = valueAt(device, spec.path);
  if (value === undefined) return;
  const names = spec.path.split('.');
  const holder = (names.length > 1 ? valueAt(device, names[0]!) : device) as Record<string, unknown>;
  const name = names[names.length - 1]!;
  if (spec.type === 'time') {
    // a time or nothing: one that does not read as one is dropped, never stored half
    if (typeof value !== 'string' || value.length > spec.bound!.max || Number.isNaN(Date.parse(value))) {
      delete holder[name];
      adjusted.push(`dropped:${spec.path}`);
    }
  } else if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ERROR_CODES);
    if (items.length < value.length) adjusted.push(`truncated:${spec.path}`);
    holder[name] = items.map((item) => text(spec.path, String(item)));
  } else if (typeof value === 'string') {
    holder[name] = text(spec.path, value);
  }
};

/** A device field that cannot be stored or become part of a key. */
interface SkippedDevice {
  devicesn: string;
  field: string;
  reason: SkipReason;
}

/** The first field of a provider's device that skips it, if any. */
export const unfitField = (device: ProviderDevice): string | undefined => {
  const bounded = boundDevice(device);
  return 'skip' in bounded ? bounded.field : undefined;
};

/**
 * Splits a provider's listing into the devices a sync can store (within their bounds) and those
 * it must skip, so one malformed record never stops the rest of the fleet from syncing. `count`
 * hears every skip and adjustment (a provider's figures for GET /providers).
 */
export const fitDevices = (
  incoming: readonly ProviderDevice[],
  count?: (kind: 'skipped' | 'adjusted', reason: string) => void,
): { fit: ProviderDevice[]; skipped: SkippedDevice[] } => {
  const fit: ProviderDevice[] = [];
  const skipped: SkippedDevice[] = [];
  for (const device of incoming) {
    const bounded = boundDevice(device);
    if ('skip' in bounded) {
      skipped.push({ devicesn: device.devicesn, field: bounded.field, reason: bounded.skip });
      count?.('skipped', bounded.skip);
      continue;
    }
    for (const adjustment of bounded.adjusted) count?.('adjusted', adjustment);
    fit.push(bounded.device);
  }
  return { fit, skipped };
};
