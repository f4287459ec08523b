import { describe, expect, it } from 'vitest';
import { uniqueSorted } from '#lib/shared/names';
import { Invalid } from '#lib/shared/errors';
import { evaluate, holds, inCandidates, parseConditions, targets, type DeviceState } from '#lib/watchers/conditions';
import { normalize, type Condition, type Element, type Operator } from '#lib/watchers/types';

const device = (overrides: Partial<DeviceState> = {}): DeviceState => ({
  deviceid: 'dev-1',
  devicesn: 'SN-1',
  devicemodel: 'Room Kit Pro',
  deviceconnected: true,
  status: { connected: true, inCallStatus: 'InCall' },
  details: { region: 'EMEA', location: 'Madrid', room: 'Sala 1' },
  ...overrides,
});

const when = (element: Element, operator: Operator, value: string): Condition => ({ element, operator, value });

describe('holds: one condition against one device', () => {
  // [element, operator, value, device value, expected]
  const stringElements: [Element, (v: string) => Partial<DeviceState>][] = [
    ['devicemodel', (v) => ({ devicemodel: v })],
    ['status.inCallStatus', (v) => ({ status: { connected: true, inCallStatus: v } })],
    ['details.region', (v) => ({ details: { region: v } })],
    ['details.location', (v) => ({ details: { location: v } })],
    ['details.room', (v) => ({ details: { room: v } })],
  ];
  // operator -> [value, {device value: expected}]
  const stringCases: [Operator, [string, Record<string, boolean>][]][] = [
    ['==', [['Madrid', { Madrid: true, madrid: false, 'Madrid 2': false }]]],
    ['!=', [['Madrid', { Madrid: false, Lisboa: true }]]],
    ['contains', [['dri', { Madrid: true }], ['DRI', { Madrid: false }], ['xyz', { Madrid: false }]]],
    ['in', [['Lisboa,Madrid', { Madrid: true }], [' Lisboa , Madrid ', { Madrid: true }], ['Lisboa,Madri', { Madrid: false }], ['Madrid', { Madrid: true }]]],
  ];
  const stringTable = stringCases.flatMap(([operator, cases]) =>
    cases.flatMap(([value, expected]) => Object.entries(expected).map(([actual, holds]): [Operator, string, string, boolean] => [operator, value, actual, holds])),
  );
  for (const [element, set] of stringElements) {
    it.each(stringTable)(`${element} %s %j against %j is %s`, (operator, value, actual, expected) => {
      expect(holds(when(element, operator, value), device(set(actual)))).toBe(expected);
    });
  }

  const booleanElements: [Element, (v: boolean) => Partial<DeviceState>][] = [
    ['status.connected', (v) => ({ status: { connected: v, inCallStatus: 'Idle' } })],
    ['deviceconnected', (v) => ({ deviceconnected: v })],
  ];
  const booleanTable: [Operator, string, boolean, boolean][] = [
    ['==', 'true', true, true],
    ['==', 'true', false, false],
    ['==', 'false', false, true],
    ['==', 'false', true, false],
    ['!=', 'true', true, false],
    ['!=', 'true', false, true],
    ['!=', 'false', false, false],
    ['!=', 'false', true, true],
  ];
  for (const [element, set] of booleanElements) {
    it.each(booleanTable)(`${element} %s %j against %s is %s`, (operator, value, actual, expected) => {
      expect(holds(when(element, operator, value), device(set(actual)))).toBe(expected);
    });
  }

  it.each([
    ['==', false],
    ['!=', true],
    ['contains', false],
    ['in', false],
  ] as const)('a field the device lacks makes %s %s', (operator, expected) => {
    expect(holds(when('details.room', operator, 'Sala 1'), device({ details: {} }))).toBe(expected);
  });

  it('a missing boolean equals neither "true" nor "false"', () => {
    const bare = device({ status: undefined });
    expect(holds(when('status.connected', '==', 'true'), bare)).toBe(false);
    expect(holds(when('status.connected', '==', 'false'), bare)).toBe(false);
  });
});

describe('evaluate: AND / OR over the conditions', () => {
  const yes = when('details.region', '==', 'EMEA');
  const no = when('details.region', '==', 'APAC');
  const tree = (operatorType: 'AND' | 'OR', conditions: Condition[]) => ({
    operations: { type: 'device', operatorType, conditions },
  });

  // conditions, then what AND and what OR of them make
  const truthTable: [Condition[], boolean, boolean][] = [
    [[yes], true, true],
    [[no], false, false],
    [[yes, yes], true, true],
    [[yes, no], false, true],
    [[no, yes], false, true],
    [[no, no], false, false],
  ];
  it.each([
    ...truthTable.map(([conditions, and]) => ['AND', conditions, and] as const),
    ...truthTable.map(([conditions, , or]) => ['OR', conditions, or] as const),
  ])('%s of %j is %s', (operatorType, conditions, expected) => {
    expect(evaluate(tree(operatorType, [...conditions]), device())).toBe(expected);
  });

  it('raises for a disconnected device in a watched room', () => {
    const watcher = tree('AND', [when('status.connected', '==', 'false'), when('details.room', 'in', 'Sala 1,Sala 2')]);
    expect(evaluate(watcher, device({ status: { connected: false } }))).toBe(true);
    expect(evaluate(watcher, device())).toBe(false);
  });

  it('refuses a stored tree that is not valid instead of guessing', () => {
    const watcher = { operations: { type: 'device', operatorType: 'XOR', conditions: [yes] } };
    expect(() => evaluate(watcher as never, device())).toThrow(Invalid);
  });
});

describe('parseConditions', () => {
  const valid = { type: 'device', operatorType: 'OR', conditions: [{ operator: 'in', value: 'a,b', element: 'devicemodel' }] };

  it('answers a valid tree as it is', () => {
    expect(parseConditions(valid)).toEqual(valid);
  });

  const fieldOf = (raw: unknown): string | undefined => {
    try {
      parseConditions(raw);
    } catch (error) {
      if (error instanceof Invalid) return error.details?.[0]?.field;
      throw error;
    }
    return undefined;
  };
  const condition = (overrides: Record<string, unknown>) => ({ ...valid, conditions: [valid.conditions[0], { ...valid.conditions[0], ...overrides }] });

  it.each([
    ['not an object', 'AND', 'operations'],
    ['an array', [], 'operations'],
    ['a missing type', { ...valid, type: undefined }, 'operations.type'],
    ['an unknown operatorType', { ...valid, operatorType: 'and' }, 'operations.operatorType'],
    ['no conditions', { ...valid, conditions: [] }, 'operations.conditions'],
    ['conditions that are not an array', { ...valid, conditions: {} }, 'operations.conditions'],
    ['a condition that is not an object', { ...valid, conditions: ['x'] }, 'operations.conditions[0]'],
    ['an unknown element', condition({ element: 'details.floor' }), 'operations.conditions[1].element'],
    ['an unknown operator', condition({ operator: '>' }), 'operations.conditions[1].operator'],
    ['a boolean value', condition({ value: true }), 'operations.conditions[1].value'],
    ['an empty value', condition({ value: '' }), 'operations.conditions[1].value'],
    ['a too long value', condition({ value: 'x'.repeat(257) }), 'operations.conditions[1].value'],
    ['contains on a boolean element', condition({ element: 'deviceconnected', operator: 'contains', value: 'true' }), 'operations.conditions[1].operator'],
    ['"yes" for a boolean element', condition({ element: 'status.connected', operator: '==', value: 'yes' }), 'operations.conditions[1].value'],
  ])('refuses %s, naming the field', (_case, raw, field) => {
    expect(fieldOf(raw)).toBe(field);
  });
});

describe('targets', () => {
  it('targets every device when allDevices is true', () => {
    expect(targets({ allDevices: true, devicesId: [] }, device())).toBe(true);
  });

  it('targets a listed device id', () => {
    expect(targets({ allDevices: false, devicesId: ['other', 'dev-1'] }, device())).toBe(true);
  });

  it('targets a listed serial number', () => {
    expect(targets({ allDevices: false, devicesId: ['SN-1'] }, device())).toBe(true);
  });

  it('leaves out devices not listed', () => {
    expect(targets({ allDevices: false, devicesId: ['dev-2', 'SN-2'] }, device())).toBe(false);
  });
});

describe('inCandidates', () => {
  it('splits on commas, trims, and drops empty candidates', () => {
    expect(inCandidates(' a, b ,,c ,')).toEqual(['a', 'b', 'c']);
  });
});

describe('uniqueSorted', () => {
  it('deduplicates and sorts by code unit, dropping non-strings', () => {
    expect(uniqueSorted(['ops', 'Ops', undefined, 'alpha', 'ops', 3, 'Beta'])).toEqual(['Beta', 'Ops', 'alpha', 'ops']);
  });

  it('answers an empty list for no values', () => {
    expect(uniqueSorted([])).toEqual([]);
  });
});

describe('normalize', () => {
  it('fills the optional fields and drops anything that is not a watcher field', () => {
    const input = {
      user: 'u',
      dashboard: 'd',
      service: 's',
      type: 't',
      allDevices: true,
      severity: 2 as const,
      operations: { type: 'x', operatorType: 'AND' as const, conditions: [{ operator: '==' as const, value: 'v', element: 'devicemodel' as const }] },
      sendEmail: false,
      active: false,
    };
    const { active: _notAWatcherField, ...given } = input;
    expect(normalize(input)).toEqual({ ...given, devicesId: [], description: '', emails: [], pendingSeconds: 0 });
  });
});

describe('vendor elements (DESIGN §6)', () => {
  const webex = device({ vendor: 'webex', vendorDetails: { connectionDetail: 'connected_with_issues', errorCodes: ['sipprofileregistration', 'x'], software: 'RoomOS 11', plannedMaintenance: 'upcoming' } });

  it('tests the vendor, its connection detail, error codes, software and planned maintenance', () => {
    expect(holds({ element: 'vendor', operator: '==', value: 'webex' }, webex)).toBe(true);
    expect(holds({ element: 'connectionDetail', operator: '==', value: 'connected_with_issues' }, webex)).toBe(true);
    expect(holds({ element: 'errorCodes', operator: 'contains', value: 'sipprofileregistration' }, webex)).toBe(true);
    expect(holds({ element: 'software', operator: 'contains', value: 'RoomOS' }, webex)).toBe(true);
    expect(holds({ element: 'plannedMaintenance', operator: 'in', value: 'on,upcoming' }, webex)).toBe(true);
    expect(holds({ element: 'connectionDetail', operator: '==', value: 'connected' }, device())).toBe(false);
  });

  it('stale is a boolean element: true while the device carries staleSince', () => {
    expect(holds({ element: 'stale', operator: '==', value: 'true' }, { ...webex, staleSince: '2026-05-04T10:30:00.000Z' })).toBe(true);
    expect(holds({ element: 'stale', operator: '==', value: 'false' }, webex)).toBe(true);
    expect(() => parseConditions({ type: 'device', operatorType: 'AND', conditions: [{ element: 'stale', operator: 'contains', value: 'true' }] })).toThrow(Invalid);
  });
});
