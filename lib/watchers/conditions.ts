import { DEVICE_FIELDS, fieldsOf, valueAt, type Device } from '#lib/devices/model';
import { Invalid } from '#lib/shared/errors';
import { areaWithinAccessScope } from '#lib/shared/scopeWithin';
import {
  BOOLEAN_ELEMENTS,
  BOOLEAN_OPERATORS,
  BOOLEAN_VALUES,
  ELEMENTS,
  IN_SEPARATOR,
  LIMITS,
  OPERATOR_TYPES,
  OPERATORS,
  type Condition,
  type Element,
  type Operations,
  type Watcher,
  type WatcherRecord,
} from './types';

/** The device state a watcher is evaluated against (as the inventory stores it, `deviceconnected` included): any field may be missing. */
export type DeviceState = Pick<Device, 'deviceid' | 'devicesn'> & {
  [K in Exclude<keyof Device, 'deviceid' | 'devicesn'>]?: Device[K] extends readonly unknown[] ? Device[K] : Device[K] extends object ? Partial<Device[K]> : Device[K];
};

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);

const isBooleanElement = (element: Element) => isOneOf(BOOLEAN_ELEMENTS, element);

const invalid = (field: string, rule: string) => new Invalid(`${field} must be ${rule}`, [{ field, message: `${field} must be ${rule}` }]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const parseCondition = (raw: unknown, field: string): Condition => {
  if (!isRecord(raw)) throw invalid(field, 'an object');
  const { operator, value, element } = raw;
  if (!isOneOf(ELEMENTS, element)) throw invalid(`${field}.element`, `one of ${ELEMENTS.join(', ')}`);
  if (!isOneOf(OPERATORS, operator)) throw invalid(`${field}.operator`, `one of ${OPERATORS.join(', ')}`);
  if (typeof value !== 'string' || value.length === 0 || value.length > LIMITS.conditionValue) {
    throw invalid(`${field}.value`, `a string of 1 to ${LIMITS.conditionValue} characters`);
  }
  if (isBooleanElement(element)) {
    if (!isOneOf(BOOLEAN_OPERATORS, operator)) throw invalid(`${field}.operator`, '"==" or "!=" for a boolean element');
    if (!isOneOf(BOOLEAN_VALUES, value)) throw invalid(`${field}.value`, '"true" or "false" for a boolean element');
  }
  return { operator, value, element };
};

/**
 * Checks a condition tree as stored or sent (the request schema already enforces the same
 * rules; the alarm engine re-checks what it reads) and answers it typed. Throws `Invalid`
 * naming the field, e.g. `operations.conditions[2].operator`.
 */
export const parseConditions = (raw: unknown): Operations => {
  if (!isRecord(raw)) throw invalid('operations', 'an object');
  const { type, operatorType, conditions } = raw;
  if (typeof type !== 'string') throw invalid('operations.type', 'a string');
  if (!isOneOf(OPERATOR_TYPES, operatorType)) throw invalid('operations.operatorType', 'AND or OR');
  if (!Array.isArray(conditions) || conditions.length === 0 || conditions.length > LIMITS.conditions) {
    throw invalid('operations.conditions', `an array of 1 to ${LIMITS.conditions} conditions`);
  }
  return {
    type,
    operatorType,
    conditions: conditions.map((condition, i) => parseCondition(condition, `operations.conditions[${i}]`)),
  };
};

/**
 * Where each element reads a device, from the field the device model gives it; undefined when the
 * device lacks it. A list reads as one string, comma-separated: `contains` finds one item, `==`
 * compares the whole list. A presence element reads whether the field is there.
 */
const READERS = new Map(
  fieldsOf(DEVICE_FIELDS, (spec) => spec.element !== undefined).map(([, spec]): [string, (device: DeviceState) => unknown] => {
    const read = (device: DeviceState) => valueAt(device, spec.path);
    if (spec.presence) return [spec.element!, (device) => read(device) !== undefined];
    if (spec.type === 'texts') return [spec.element!, (device) => (Array.isArray(read(device)) ? (read(device) as unknown[]).join(',') : undefined)];
    return [spec.element!, read];
  }),
);

/** The device's value for an element, booleans as "true"/"false"; undefined when the device lacks it. */
const elementValue = (device: DeviceState, element: Element): string | undefined => {
  const value = READERS.get(element)?.(device); // ?. : a stored element no longer listed reads nothing
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return typeof value === 'string' ? value : undefined;
};

/** `in` candidates: comma-separated, each trimmed, empty ones dropped. */
export const inCandidates = (value: string): string[] =>
  value
    .split(IN_SEPARATOR)
    .map((candidate) => candidate.trim())
    .filter((candidate) => candidate.length > 0);

/**
 * One condition against one device. Comparisons are exact and case-sensitive. A field the
 * device lacks equals nothing: `==`, `contains`, `in` are false and `!=` is true.
 */
export const holds = ({ operator, value, element }: Condition, device: DeviceState): boolean => {
  const actual = elementValue(device, element);
  switch (operator) {
    case '==':
      return actual === value;
    case '!=':
      return actual !== value;
    case 'contains':
      return actual !== undefined && actual.includes(value);
    case 'in':
      return actual !== undefined && inCandidates(value).includes(actual);
  }
};

/** Whether the watcher's condition tree holds for the device (AND needs every condition, OR at least one). */
export const evaluate = (watcher: Pick<Watcher, 'operations'>, device: DeviceState): boolean => {
  const { operatorType, conditions } = parseConditions(watcher.operations);
  return operatorType === 'AND'
    ? conditions.every((condition) => holds(condition, device))
    : conditions.some((condition) => holds(condition, device));
};

/**
 * Whether the watcher watches the device: the device lies within the watcher's scope (a scoped
 * creator's "all devices" are all in its scope), and `allDevices`, or `devicesId` names its id or
 * serial number. Every pass of the engine asks this one question (lib/alarms/engine/pure/plan.ts).
 */
export const targets = (watcher: Pick<WatcherRecord, 'allDevices' | 'devicesId' | 'scope'>, device: DeviceState): boolean =>
  areaWithinAccessScope(watcher.scope ?? [], { region: device.details?.region, location: device.details?.location }) &&
  (watcher.allDevices || watcher.devicesId.includes(device.deviceid) || watcher.devicesId.includes(device.devicesn));
