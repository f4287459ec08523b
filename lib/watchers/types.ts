/**
 * The vocabulary of a watcher (alarm rule), DESIGN D5. The request schema, the repository
 * and the condition evaluator all read these lists, so they cannot disagree.
 */
import { DEVICE_FIELDS, fieldsOf, ordered, type DeviceElement } from '#lib/devices/model';

/** The elements in the order the API has always listed them (its 400 answers name them in this order). */
const ELEMENT_LEAD = ['status.connected', 'status.inCallStatus', 'deviceconnected', 'devicemodel', 'details.region', 'details.location', 'details.room'] as const satisfies readonly DeviceElement[];

/** The device fields a condition may test: every field the device model gives an element, ELEMENT_LEAD first. */
export const ELEMENTS: readonly DeviceElement[] = ordered<DeviceElement>(
  ELEMENT_LEAD,
  fieldsOf(DEVICE_FIELDS, (spec) => spec.element !== undefined).map(([, spec]) => spec.element as DeviceElement),
);
export type Element = DeviceElement;

/** Elements holding a boolean (a flag, or whether a field is present); their condition value is the string "true" or "false". */
export const BOOLEAN_ELEMENTS: readonly Element[] = ELEMENTS.filter((element) =>
  fieldsOf(DEVICE_FIELDS, (spec) => spec.element === element && (spec.type === 'flag' || spec.presence === true)).length > 0,
);
export const BOOLEAN_OPERATORS = ['==', '!='] as const;
export const BOOLEAN_VALUES = ['true', 'false'] as const;

export const OPERATORS = ['==', '!=', 'contains', 'in'] as const;
export type Operator = (typeof OPERATORS)[number];

export const OPERATOR_TYPES = ['AND', 'OR'] as const;
type OperatorType = (typeof OPERATOR_TYPES)[number];

import type { AccessScopeEntry } from '#lib/shared/access';
import type { Severity } from '#lib/shared/severity';
import { assertListShare, caps } from '#lib/shared/caps';

// Severities are shared with alarms and rooms (lib/shared/severity.ts).
export { MAX_SEVERITY, MIN_SEVERITY, type Severity } from '#lib/shared/severity';

/** Separator of the candidates in an `in` value: "Room A,Room B". */
export const IN_SEPARATOR = ',';

export const LIMITS = {
  name: 256,
  description: 2048,
  conditionValue: 256,
  conditions: 50,
  devicesId: 500,
  emails: 50,
  email: 254,
  channelIds: 20,
  repeatIntervalSeconds: { min: 3600, max: 604_800 },
  /** Escalation: up to 5 steps, each at least a minute after the alarm fired and at most a week. */
  escalationSteps: 5,
  escalationAfterMinutes: { min: 1, max: 10_080 },
  /** Flapping: state changes that make a device flapping, the window they count in, the quiet that ends it. */
  flapTransitions: { min: 2, max: 100 },
  flapWindowMinutes: { min: 1, max: 1440 },
  flapQuietMinutes: { min: 1, max: 1440 },
} as const;

/** One escalation step: who else is told when an alarm is still unacknowledged `afterMinutes` after it fired. */
export interface EscalationStep {
  afterMinutes: number;
  channelIds: string[];
  emails: string[];
}

/** When a device counts as flapping (docs/guide/rules/alarms.md "A flapping device keeps one alarm open"). */
export interface FlappingSettings {
  transitions: number;
  windowMinutes: number;
  quietMinutes: number;
}

/** Flapping as a watcher holds it when it says nothing: on, with these settings. */
export const DEFAULT_FLAPPING: FlappingSettings = { transitions: 4, windowMinutes: 30, quietMinutes: 10 };

export interface Condition {
  operator: Operator;
  value: string;
  element: Element;
}

export interface Operations {
  type: string;
  operatorType: OperatorType;
  conditions: Condition[];
}

/** A watcher as clients send it (POST and PUT): `description`, `devicesId`, `emails` may be left out. */
export interface WatcherInput {
  user: string;
  dashboard: string;
  service: string;
  type: string;
  devicesId?: string[];
  allDevices: boolean;
  severity: Severity;
  operations: Operations;
  description?: string;
  sendEmail: boolean;
  emails?: string[];
  /** Seconds the condition must hold before the alarm fires (0..86400, default 0: at once). */
  pendingSeconds?: number;
  /** Notification channels (webhooks, e-mail lists) told in addition to `emails`; ids of existing channels. */
  channelIds?: string[];
  /** Re-notify open, unacknowledged alarms once per this many seconds (0 = never, else 3600..604800). */
  repeatIntervalSeconds?: number;
  /** The parent condition that suppresses its alarms while it holds over their room or location (docs/guide/rules/alarms.md "A watcher declares its parent condition as `inhibitedBy`, checked when it is written"). */
  inhibitedBy?: InhibitedBy;
  /** 1 to 5 steps: further targets told while a firing alarm stays unacknowledged (docs/guide/rules/alarms.md "Escalation reaches each step once"). */
  escalation?: { afterMinutes: number; channelIds?: string[]; emails?: string[] }[];
  /** Flapping detection: settings (each defaulted), or false to tell every state change. */
  flapping?: Partial<FlappingSettings> | false;
}

/**
 * A parent condition, so one outage raises one alarm rather than one per device: `roomOffline`, every device of the alarm's room offline;
 * `locationOffline`, at least `percent`% of its location's devices offline; `watcher`, another
 * watcher with a firing alarm in the same room or location.
 */
export type InhibitedBy =
  | { condition: 'roomOffline' }
  | { condition: 'locationOffline'; percent: number }
  | { condition: 'watcher'; watcherId: string; over: 'room' | 'location' };
export const INHIBITION_OVER = ['room', 'location'] as const;

/** The longest pending period a watcher may ask for: one day. */
export const MAX_PENDING_SECONDS = 86_400;

/** Notification fields a watcher carries only when they were sent. */
type NotificationFields = 'channelIds' | 'repeatIntervalSeconds' | 'inhibitedBy' | 'escalation' | 'flapping';

/** The rule as stored: every field present, but the notification fields only when set. */
export type Watcher = Required<Omit<WatcherInput, NotificationFields>> &
  Pick<WatcherInput, 'channelIds' | 'repeatIntervalSeconds' | 'inhibitedBy'> & { escalation?: EscalationStep[]; flapping?: FlappingSettings | false };

/** A watcher as the API answers it. */
export interface WatcherRecord extends Watcher {
  id: string;
  /**
   * The scope of the principal that created it (DESIGN §5): it raises alarms only for devices
   * inside. Absent: unscoped, the whole fleet. Set at creation, never changed.
   */
  scope?: AccessScopeEntry[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The alarm-configuration fields listed by `/filter/dashboards|alarmservices|alarmtypes`. */
export type ConfigurationField = 'dashboard' | 'service' | 'type';

/** Fills the optional fields, and keeps only the fields of a watcher, in a stable order. */
export const normalize = (input: WatcherInput): Watcher => ({
  user: input.user,
  dashboard: input.dashboard,
  service: input.service,
  type: input.type,
  devicesId: input.devicesId ?? [],
  allDevices: input.allDevices,
  severity: input.severity,
  operations: {
    type: input.operations.type,
    operatorType: input.operations.operatorType,
    conditions: input.operations.conditions.map(({ operator, value, element }) => ({ operator, value, element })),
  },
  description: input.description ?? '',
  sendEmail: input.sendEmail,
  emails: input.emails ?? [],
  pendingSeconds: input.pendingSeconds ?? 0,
  ...(input.channelIds?.length ? { channelIds: [...input.channelIds] } : {}),
  ...(input.repeatIntervalSeconds ? { repeatIntervalSeconds: input.repeatIntervalSeconds } : {}),
  ...(input.inhibitedBy ? { inhibitedBy: inhibitedByOf(input.inhibitedBy) } : {}),
  ...(input.escalation?.length
    ? { escalation: input.escalation.map((step) => ({ afterMinutes: step.afterMinutes, channelIds: [...(step.channelIds ?? [])], emails: [...(step.emails ?? [])] })) }
    : {}),
  ...(input.flapping === false ? { flapping: false as const } : input.flapping ? { flapping: { ...DEFAULT_FLAPPING, ...flappingOf(input.flapping) } } : {}),
});

/** Only the flapping fields that were sent. */
const flappingOf = (sent: Partial<FlappingSettings>): Partial<FlappingSettings> =>
  Object.fromEntries((['transitions', 'windowMinutes', 'quietMinutes'] as const).filter((k) => sent[k] !== undefined).map((k) => [k, sent[k]]));

/** The flapping settings a watcher runs with: its own, the defaults when it says nothing, undefined when switched off. */
export const flappingOfWatcher = (watcher: Pick<Watcher, 'flapping'>): FlappingSettings | undefined =>
  watcher.flapping === false ? undefined : (watcher.flapping ?? DEFAULT_FLAPPING);

/** Every channel a watcher names: its own and its escalation steps' (each such channel cannot be deleted while named). */
export const namedChannels = (watcher: Pick<WatcherInput, 'channelIds' | 'escalation'>): string[] => [
  ...new Set([...(watcher.channelIds ?? []), ...(watcher.escalation ?? []).flatMap((step) => step.channelIds ?? [])]),
];

/** Only the fields of its condition, in a stable order. */
const inhibitedByOf = (parent: InhibitedBy): InhibitedBy =>
  parent.condition === 'watcher'
    ? { condition: 'watcher', watcherId: parent.watcherId, over: parent.over }
    : parent.condition === 'locationOffline'
      ? { condition: 'locationOffline', percent: parent.percent }
      : { condition: 'roomOffline' };

/** Refuses (400) a watcher that would answer more than its share of GET /watcher/all (lib/shared/caps.ts). */
export const assertListable = (record: WatcherRecord): void =>
  assertListShare(record, { max: caps.watchers(), variable: 'WATCHERS_MAX' }, 'body', 'watcher');
