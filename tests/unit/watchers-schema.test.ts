import { describe, expect, it } from 'vitest';
import { describeSchemaErrors } from '#lib/shared/validation';
import validateCreate from '#generated/validators/watchersCreate';
import validateUpdate from '#generated/validators/watchersUpdate';
import validateStatus from '#generated/validators/watchersStatus';
import validateById from '#generated/validators/watchersGet';
import { requireValidEscalation } from '#lib/watchers/write';
import type { Invalid } from '#lib/shared/errors';
import { anyOf, watcherInput } from '../support/fleet';

const watcher = (overrides: Record<string, unknown> = {}) => ({ ...watcherInput({ user: 'ana', type: 'connectivity' }), ...overrides });
const withCondition = (condition: Record<string, unknown>) =>
  watcher({ operations: anyOf(condition) });

/** The fields the validator names for a create body; [] when valid. */
const fields = (body: unknown): string[] => {
  const valid = validateCreate({ body });
  return valid ? [] : describeSchemaErrors(validateCreate.errors).map((e) => e.field ?? '');
};

describe('watcher body schema (DESIGN D5)', () => {
  it('accepts the minimal body: required fields only, allDevices true', () => {
    expect(fields(watcher())).toEqual([]);
  });

  it('accepts a full body with listed devices, e-mails and every operator', () => {
    const body = watcher({
      allDevices: false,
      devicesId: ['dev-1', 'SN-2'],
      description: 'x'.repeat(2048),
      sendEmail: true,
      emails: ['ops@example.com', 'a.b+c@sub.example.org'],
      operations: anyOf(
        { operator: '!=', value: 'true', element: 'deviceconnected' },
        { operator: 'contains', value: 'Kit', element: 'devicemodel' },
        { operator: 'in', value: 'Sala 1,Sala 2', element: 'details.room' },
        { operator: '==', value: 'InCall', element: 'status.inCallStatus' },
        { operator: '==', value: 'EMEA', element: 'details.region' },
        { operator: '!=', value: 'Madrid', element: 'details.location' },
      ),
    });
    expect(fields(body)).toEqual([]);
  });

  it.each(['user', 'dashboard', 'service', 'type', 'allDevices', 'severity', 'operations', 'sendEmail'])(
    'requires %s',
    (field) => {
      const body: Record<string, unknown> = watcher();
      delete body[field];
      expect(fields(body)).toContain(`body.${field}`);
    },
  );

  it.each([
    ['severity 0', watcher({ severity: 0 }), 'body.severity'],
    ['severity 5', watcher({ severity: 5 }), 'body.severity'],
    ['a fractional severity', watcher({ severity: 1.5 }), 'body.severity'],
    ['a string severity', watcher({ severity: '1' }), 'body.severity'],
    ['operatorType XOR', watcher({ operations: { type: 'd', operatorType: 'XOR', conditions: [] } }), 'body.operations.operatorType'],
    ['lower-case operatorType', watcher({ operations: { type: 'd', operatorType: 'and', conditions: [{ operator: '==', value: 'a', element: 'devicemodel' }] } }), 'body.operations.operatorType'],
    ['no conditions', watcher({ operations: { type: 'd', operatorType: 'AND', conditions: [] } }), 'body.operations.conditions'],
    ['51 conditions', watcher({ operations: { type: 'd', operatorType: 'AND', conditions: Array(51).fill({ operator: '==', value: 'a', element: 'devicemodel' }) } }), 'body.operations.conditions'],
    ['an unknown element', withCondition({ operator: '==', value: 'a', element: 'details.floor' }), 'body.operations.conditions[0].element'],
    ['an unknown operator', withCondition({ operator: '>=', value: 'a', element: 'devicemodel' }), 'body.operations.conditions[0].operator'],
    ['a boolean value', withCondition({ operator: '==', value: false, element: 'deviceconnected' }), 'body.operations.conditions[0].value'],
    ['a number value', withCondition({ operator: '==', value: 3, element: 'devicemodel' }), 'body.operations.conditions[0].value'],
    ['an empty value', withCondition({ operator: '==', value: '', element: 'devicemodel' }), 'body.operations.conditions[0].value'],
    ['a too long value', withCondition({ operator: '==', value: 'x'.repeat(257), element: 'devicemodel' }), 'body.operations.conditions[0].value'],
    ['a value with a NUL', withCondition({ operator: '==', value: 'E\u0000MEA', element: 'details.region' }), 'body.operations.conditions[0].value'],
    ['"yes" for a boolean element', withCondition({ operator: '==', value: 'yes', element: 'status.connected' }), 'body.operations.conditions[0].value'],
    ['contains on a boolean element', withCondition({ operator: 'contains', value: 'true', element: 'deviceconnected' }), 'body.operations.conditions[0].operator'],
    ['an unknown condition property', withCondition({ operator: '==', value: 'a', element: 'devicemodel', not: true }), 'body.operations.conditions[0].not'],
    ['an unknown operations property', watcher({ operations: { type: 'd', operatorType: 'AND', conditions: [{ operator: '==', value: 'a', element: 'devicemodel' }], nested: [] } }), 'body.operations.nested'],
    ['an invalid e-mail', watcher({ emails: ['not-an-address'] }), 'body.emails[0]'],
    ['a non-string e-mail', watcher({ emails: [42] }), 'body.emails[0]'],
    ['51 e-mails', watcher({ emails: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`) }), 'body.emails'],
    ['duplicate e-mails', watcher({ emails: ['a@example.com', 'a@example.com'] }), 'body.emails'],
    ['sendEmail without e-mails', watcher({ sendEmail: true }), 'body.emails'],
    ['sendEmail with an empty e-mail list', watcher({ sendEmail: true, emails: [] }), 'body.emails'],
    ['a non-boolean sendEmail', watcher({ sendEmail: 'yes' }), 'body.sendEmail'],
    ['allDevices false without devicesId', watcher({ allDevices: false }), 'body.devicesId'],
    ['allDevices false with an empty devicesId', watcher({ allDevices: false, devicesId: [] }), 'body.devicesId'],
    ['a non-boolean allDevices', watcher({ allDevices: 'true' }), 'body.allDevices'],
    ['devicesId that is a string', watcher({ devicesId: 'dev-1' }), 'body.devicesId'],
    ['a non-string device id', watcher({ devicesId: [1] }), 'body.devicesId[0]'],
    ['an empty device id', watcher({ devicesId: [''] }), 'body.devicesId[0]'],
    ['501 device ids', watcher({ devicesId: Array.from({ length: 501 }, (_, i) => `d${i}`) }), 'body.devicesId'],
    ['a too long user', watcher({ user: 'u'.repeat(257) }), 'body.user'],
    ['an empty dashboard', watcher({ dashboard: '' }), 'body.dashboard'],
    ['a too long description', watcher({ description: 'd'.repeat(2049) }), 'body.description'],
    ['active (set only through the status endpoint)', watcher({ active: false }), 'body.active'],
    ['an id', watcher({ id: 'mine' }), 'body.id'],
    ['a timestamp', watcher({ createdAt: '2020-01-01T00:00:00Z' }), 'body.createdAt'],
    ['a version', watcher({ version: 7 }), 'body.version'],
  ])('refuses %s, naming the field', (_case, body, field) => {
    expect(fields(body)).toContain(field);
  });

  it('refuses a body that is not an object', () => {
    expect(fields([watcher()])).toEqual(['body']);
  });

  it('explains the cross-field rules in the message', () => {
    validateCreate({ body: watcher({ sendEmail: true, emails: [] }) });
    expect(describeSchemaErrors(validateCreate.errors)).toContainEqual({
      field: 'body.emails',
      message: 'body.emails must be a non-empty array of e-mail addresses when sendEmail is true',
    });
  });
});

describe('watcher path and status schemas', () => {
  const id = '0b7e3c1e-8a3a-4b8e-9a51-1f0e2d3c4b5a';

  it('accepts a UUID watcher id in the path of an update', () => {
    expect(validateUpdate({ pathParameters: { watcherid: id }, body: watcher() })).toBe(true);
  });

  it.each(['a.b', 'a b', 'x'.repeat(65), '', '..%2F'])('refuses the watcher id %j', (watcherid) => {
    expect(validateById({ pathParameters: { watcherid } })).toBe(false);
    expect(describeSchemaErrors(validateById.errors)[0]?.field).toBe('pathParameters.watcherid');
  });

  it.each([true, false])('accepts {active: %s}', (active) => {
    expect(validateStatus({ pathParameters: { watcherid: id }, body: { active } })).toBe(true);
  });

  it.each([
    ['a string', { active: 'true' }, 'body.active'],
    ['a number', { active: 1 }, 'body.active'],
    ['null', { active: null }, 'body.active'],
    ['a missing active', {}, 'body.active'],
    ['an extra property', { active: true, severity: 1 }, 'body.severity'],
  ])('refuses a status body with %s', (_case, body, field) => {
    expect(validateStatus({ pathParameters: { watcherid: id }, body })).toBe(false);
    expect(describeSchemaErrors(validateStatus.errors).map((e) => e.field)).toContain(field);
  });
});

describe('escalation and flapping (docs/guide/rules/alarms.md "Escalation reaches each step once")', () => {
  const step = (afterMinutes: number) => ({ afterMinutes, emails: ['lead@example.com'] });

  it('accepts 1 to 5 steps and flapping settings, or flapping: false', () => {
    expect(fields(watcher({ escalation: [1, 5, 15, 60, 240].map(step), flapping: { transitions: 6, windowMinutes: 20, quietMinutes: 5 } }))).toEqual([]);
    expect(fields(watcher({ escalation: [{ afterMinutes: 1, channelIds: ['c-1'] }], flapping: false }))).toEqual([]);
    expect(fields(watcher({ flapping: {} }))).toEqual([]);
  });

  it('refuses past the caps, naming the field', () => {
    expect(fields(watcher({ escalation: [1, 2, 3, 4, 5, 6].map(step) }))).toContain('body.escalation');
    expect(fields(watcher({ escalation: [] }))).toContain('body.escalation');
    expect(fields(watcher({ escalation: [step(0)] }))).toContain('body.escalation[0].afterMinutes');
    expect(fields(watcher({ escalation: [step(10_081)] }))).toContain('body.escalation[0].afterMinutes');
    expect(fields(watcher({ escalation: [{ afterMinutes: 5, pager: 'x' }] }))).toContain('body.escalation[0].pager');
    expect(fields(watcher({ flapping: { transitions: 1 } }))).toContain('body.flapping.transitions');
    expect(fields(watcher({ flapping: { windowMinutes: 1441 } }))).toContain('body.flapping.windowMinutes');
    expect(fields(watcher({ flapping: { quietMinutes: 0 } }))).toContain('body.flapping.quietMinutes');
    expect(fields(watcher({ flapping: true })).length).toBeGreaterThan(0);
  });

  it('refuses steps out of order or telling nobody, naming each (what the schema cannot say)', () => {
    const refused = (escalation: { afterMinutes: number; emails?: string[] }[]) => {
      try {
        requireValidEscalation({ escalation });
        return [];
      } catch (error) {
        return (error as Invalid).details?.map((d) => d.field) ?? [];
      }
    };
    expect(refused([step(5), step(15)])).toEqual([]);
    expect(refused([step(15), step(5)])).toEqual(['body.escalation[1].afterMinutes']);
    expect(refused([step(5), step(5)])).toEqual(['body.escalation[1].afterMinutes']);
    expect(refused([step(5), { afterMinutes: 10 }])).toEqual(['body.escalation[1]']);
  });
});
