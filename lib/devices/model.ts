import type { Severity } from '#lib/shared/severity';

/*
 * A device's fields, declared once (docs/adr/0313). Every other view of a device derives from this
 * table: its types (below), its item mapping and read projection (entities.ts), its answer
 * (types.ts `toDevice`), the sync's change comparison and fingerprint (lib/inventory/pure), the
 * vendor bounds (lib/inventory/pure/names.ts), its CSV columns (csv.ts) and the watcher elements
 * (lib/watchers/types.ts). The API's Device contract (schemas/devices.ts) is written out, as a
 * promise to clients, and a test holds it equal to the answered fields here.
 *
 * The table is keyed by the item attribute (what the table stores: these names never change, so
 * stored items need no migration) and lists the fields in the order the API answers them.
 */

/** A value's type: text, a time (ISO 8601 text), a flag, a list of texts, an alarm severity (1..4). */
type FieldType = 'text' | 'time' | 'flag' | 'texts' | 'severity';

/**
 * How a provider's value is bounded before it is stored (lib/inventory/pure/names.ts): a `key`
 * (identity) or `place` (part of the room's key) that cannot be used skips the device; `text` is cut.
 */
export interface Bound {
  readonly kind: 'key' | 'place' | 'text';
  /** Most characters (code points) kept. */
  readonly max: number;
}

export interface FieldSpec {
  /** Where the field sits in a device: its name, or `group.name` inside one of its groups. */
  readonly path: string;
  readonly type: FieldType;
  /** Every device has it; otherwise it may be absent (an empty text or list counts as absent). */
  readonly required?: true;
  /**
   * Who writes it: the device's provider (compared and fingerprinted by the sync), the sync itself,
   * the alarm engine (carried over by every other writer), or nobody (`derived`: not stored, it
   * repeats the field named by `sameAs` in the answer).
   */
  readonly from: 'provider' | 'sync' | 'engine' | 'derived';
  readonly sameAs?: string;
  /** Stored but never answered. */
  readonly hidden?: true;
  /** Its column in the device CSV; none: not exported. */
  readonly csv?: string;
  /** The watcher element that tests it; none: watchers cannot test it. */
  readonly element?: string;
  /** The element tests whether the field is present (a flag), not its value. */
  readonly presence?: true;
  /** Bounded when a provider sends it (a field a provider fills must have one; `vendor` is ours). */
  readonly bound?: Bound;
}

export type DeviceFields = Readonly<Record<string, FieldSpec>>;

export const DEVICE_FIELDS = {
  deviceid: { path: 'deviceid', type: 'text', required: true, from: 'provider', csv: 'deviceid', bound: { kind: 'key', max: 512 } },
  devicesn: { path: 'devicesn', type: 'text', required: true, from: 'provider', csv: 'devicesn', bound: { kind: 'key', max: 256 } },
  devicemodel: { path: 'devicemodel', type: 'text', required: true, from: 'provider', csv: 'model', element: 'devicemodel', bound: { kind: 'text', max: 256 } },
  connected: { path: 'status.connected', type: 'flag', required: true, from: 'provider', csv: 'connected', element: 'status.connected' },
  /** ACTIVE and NONE occur; other values from a provider are passed through. */
  inCallStatus: { path: 'status.inCallStatus', type: 'text', required: true, from: 'provider', csv: 'inCallStatus', element: 'status.inCallStatus', bound: { kind: 'text', max: 32 } },
  /** The spec's copy of `status.connected`. */
  deviceconnected: { path: 'deviceconnected', type: 'flag', required: true, from: 'derived', sameAs: 'connected', element: 'deviceconnected' },
  // the place names' real bound is the keys they become (one 1,024-byte sort key, URI-encoded):
  // placeKeys.oversizedField; this one only stops a name long past it before it is encoded
  room: { path: 'details.room', type: 'text', required: true, from: 'provider', csv: 'room', element: 'details.room', bound: { kind: 'place', max: 1024 } },
  location: { path: 'details.location', type: 'text', required: true, from: 'provider', csv: 'location', element: 'details.location', bound: { kind: 'place', max: 1024 } },
  region: { path: 'details.region', type: 'text', required: true, from: 'provider', csv: 'region', element: 'details.region', bound: { kind: 'place', max: 1024 } },
  /** The provider that reports the device (`webex`, `zoom`, `http`, `simulated`). */
  vendor: { path: 'vendor', type: 'text', from: 'provider', csv: 'vendor', element: 'vendor' },
  /** The vendor's handle for a refresh (Zoom: the room id). */
  vendorRef: { path: 'vendorRef', type: 'text', from: 'provider', hidden: true, bound: { kind: 'key', max: 512 } },
  /** The vendor's own connection state, e.g. Webex `connected_with_issues`, Zoom `Online`. */
  connectionDetail: { path: 'vendorDetails.connectionDetail', type: 'text', from: 'provider', csv: 'connectionDetail', element: 'connectionDetail', bound: { kind: 'text', max: 64 } },
  /** Each code bounded, and how many are kept (lib/inventory/pure/names.ts MAX_ERROR_CODES). */
  errorCodes: { path: 'vendorDetails.errorCodes', type: 'texts', from: 'provider', csv: 'errorCodes', element: 'errorCodes', bound: { kind: 'text', max: 128 } },
  software: { path: 'vendorDetails.software', type: 'text', from: 'provider', csv: 'software', element: 'software', bound: { kind: 'text', max: 256 } },
  /**
   * Kept for a device that is not connected only (a connected one is seen now: keeping its
   * ever-moving time would rewrite the whole fleet on every sync).
   */
  lastSeen: { path: 'vendorDetails.lastSeen', type: 'time', from: 'provider', csv: 'lastSeen', bound: { kind: 'text', max: 64 } },
  /** Planned maintenance mode (`off`, `on`, `upcoming`). */
  plannedMaintenance: { path: 'vendorDetails.plannedMaintenance', type: 'text', from: 'provider', csv: 'plannedMaintenance', element: 'plannedMaintenance', bound: { kind: 'text', max: 32 } },
  /** Since when the device's provider has been failing longer than PROVIDER_STALE_MINUTES. */
  staleSince: { path: 'staleSince', type: 'time', from: 'sync', csv: 'staleSince', element: 'stale', presence: true },
  /** The worst open alarm's severity (pending ones do not count). */
  alarmSeverity: { path: 'alarmSeverity', type: 'severity', from: 'engine', hidden: true },
  /** Watchers with an open alarm on the device. */
  alarmWatchers: { path: 'alarmWatchers', type: 'texts', from: 'engine', hidden: true },
} as const satisfies DeviceFields;

type Declared = typeof DEVICE_FIELDS;
/** A device field, named as its item attribute. */
export type DeviceField = keyof Declared;

/* Types derived from the declaration. */

type ValueOf<S extends FieldSpec> = S['type'] extends 'flag' ? boolean : S['type'] extends 'texts' ? string[] : S['type'] extends 'severity' ? Severity : string;
type Flat<T> = { [K in keyof T]: T[K] } & {};
type Leaf<P extends string> = P extends `${string}.${infer Name}` ? Name : P;
type IsRequired<S> = S extends { required: true } ? true : false;

/** An object of the fields `F` sitting directly in it, required ones required. */
type Members<F extends DeviceFields> = Flat<
  { -readonly [K in keyof F as IsRequired<F[K]> extends true ? Leaf<F[K]['path']> : never]: ValueOf<F[K]> } & {
    -readonly [K in keyof F as IsRequired<F[K]> extends true ? never : Leaf<F[K]['path']>]?: ValueOf<F[K]>;
  }
>;
/** The fields of `F` inside group `G`. */
type InGroup<F extends DeviceFields, G extends string> = { [K in keyof F as F[K]['path'] extends `${G}.${string}` ? K : never]: F[K] };
type Groups<F extends DeviceFields> = { [K in keyof F]: F[K]['path'] extends `${infer G}.${string}` ? G : never }[keyof F];
type Singles<F extends DeviceFields> = { [K in keyof F as F[K]['path'] extends `${string}.${string}` ? never : K]: F[K] };
/** A group is required when one of its fields is. */
type AnyRequired<F extends DeviceFields> = true extends { [K in keyof F]: IsRequired<F[K]> }[keyof F] ? true : false;
type Shape<F extends DeviceFields> = Flat<
  Members<Singles<F>> & { -readonly [G in Groups<F> as AnyRequired<InGroup<F, G>> extends true ? G : never]: Members<InGroup<F, G>> } & {
    -readonly [G in Groups<F> as AnyRequired<InGroup<F, G>> extends true ? never : G]?: Members<InGroup<F, G>>;
  }
>;
type Where<F extends DeviceFields, Test> = { [K in keyof F as F[K] extends Test ? K : never]: F[K] };
type Stored = Where<Declared, { from: 'provider' | 'sync' | 'engine' }>;
type Reported = Where<Declared, { from: 'provider' | 'sync' }>;
type Answered = Where<Declared, { from: 'provider' | 'sync' | 'derived' }>;

/** A device as stored: what its provider reports, `staleSince` set by the sync, and the alarm engine's fields. */
export type StoredDevice = Shape<Stored>;
/** A device as a provider reports it (the alarm engine's fields left out). */
export type ProviderDevice = Shape<Reported>;
/** A device as the API answers it (spec "Device"): hidden fields left out, derived ones in. */
export type Device = Shape<Omit<Answered, { [K in keyof Answered]: Answered[K] extends { hidden: true } ? K : never }[keyof Answered]>>;
/** What a vendor says about a device beyond the spec's fields (DESIGN §6). */
export type VendorDetails = NonNullable<StoredDevice['vendorDetails']>;
/** The watcher elements the declaration names. */
export type DeviceElement = { [K in DeviceField]: Declared[K] extends { element: infer E extends string } ? E : never }[DeviceField];

/*
 * Derivation helpers: each takes the table or a field's spec and never reads DEVICE_FIELDS itself,
 * so the views built from it follow a table a test swaps in (tests/integration/device-model.test.ts).
 */

/** The declared fields `keep` selects, as [attribute, spec], in declaration order. */
export const fieldsOf = (fields: DeviceFields, keep: (spec: FieldSpec) => boolean = () => true): [string, FieldSpec][] =>
  Object.entries(fields).filter(([, spec]) => keep(spec));

export const isStored = (spec: FieldSpec): boolean => spec.from !== 'derived';
export const isAnswered = (spec: FieldSpec): boolean => spec.from !== 'engine' && spec.hidden !== true;
/** Reported from outside, by the provider or the sync: what a sync compares and fingerprints. */
export const isSynced = (spec: FieldSpec): boolean => spec.from === 'provider' || spec.from === 'sync';
export const isPlace = (spec: FieldSpec): boolean => spec.bound?.kind === 'place';

/** A field's value: what `FieldType` names, or undefined when absent. */
export type FieldValue = string | boolean | number | string[] | undefined;

/** The value at a field's path in a device (or anything shaped like one); undefined when absent. */
export const valueAt = (device: object, path: string): unknown => {
  let at: unknown = device;
  for (const name of path.split('.')) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined;
  return at;
};

/**
 * A raw value (from an item or a device) as the field holds it: a required field always has one
 * (a flag is true only when true), an optional one is absent when empty (no empty text, no empty list).
 */
export const normal = (spec: FieldSpec, raw: unknown): FieldValue => {
  switch (spec.type) {
    case 'flag':
      return spec.required ? raw === true : typeof raw === 'boolean' ? raw : undefined;
    case 'texts':
      return Array.isArray(raw) && raw.length > 0 ? raw.map(String) : undefined;
    case 'severity':
      return typeof raw === 'number' ? raw : undefined;
    default:
      return spec.required ? String(raw) : typeof raw === 'string' && raw !== '' ? raw : undefined;
  }
};

/** A field's value in a device, as stored (see `normal`). */
export const fieldValue = (device: object, spec: FieldSpec): FieldValue => normal(spec, valueAt(device, spec.path));

/** Whether two values of a field are the same (lists item by item). */
export const sameValue = (a: FieldValue, b: FieldValue): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((item, i) => item === b[i]) : a === b;

/**
 * A device from [path, value] pairs, in their order: groups made on first use, absent values
 * left out, and a group none of whose values is present left out.
 */
export const assemble = (values: Iterable<readonly [string, unknown]>): Record<string, unknown> => {
  const device: Record<string, unknown> = {};
  for (const [path, value] of values) {
    if (value === undefined) continue;
    const names = path.split('.');
    let at = device;
    for (const name of names.slice(0, -1)) at = (at[name] ??= {}) as Record<string, unknown>;
    at[names[names.length - 1]!] = value;
  }
  return device;
};

/**
 * A view's order: the names `lead` lists first, in its order (the order clients already read),
 * then every other name in declaration order (fields declared later land at the end).
 */
export const ordered = <T extends string>(lead: readonly T[], declared: readonly T[]): T[] => [
  ...lead.filter((name) => declared.includes(name)),
  ...declared.filter((name) => !lead.includes(name)),
];
