import { describe, expect, it } from 'vitest';
import validateCreate from '#generated/validators/rolesCreate';
import validateUpdate from '#generated/validators/rolesUpdate';
import { BUILT_IN_ROLES, builtInRole } from '#lib/access/roles';
import { BUILT_IN_PERMISSIONS, PERMISSIONS } from '#lib/shared/access';
import { describeSchemaErrors, type CompiledValidator } from '#lib/shared/validation';

/** The fields a validator names for an event; [] when valid. */
const problems = (validate: CompiledValidator, event: unknown) =>
  validate(event) ? [] : describeSchemaErrors(validate.errors).map((e) => ({ field: e.field, message: e.message }));
const create = (body: unknown) => problems(validateCreate, { body });
const update = (body: unknown) => problems(validateUpdate, { body, pathParameters: { roleid: 'night-shift' } });

describe('the built-in roles (DESIGN §5)', () => {
  it('are admin, viewer and operator, each granting exactly its permissions from the vocabulary', () => {
    expect(BUILT_IN_ROLES.map((role) => [role.roleid, role.permissions])).toEqual([
      ['admin', [...PERMISSIONS]],
      ['viewer', ['fleet:read']],
      ['operator', ['fleet:read', 'alarms:ack', 'silences:write', 'watchers:write']],
    ]);
    for (const role of BUILT_IN_ROLES) {
      expect(role.permissions).toEqual(BUILT_IN_PERMISSIONS[role.roleid as keyof typeof BUILT_IN_PERMISSIONS]);
      expect(role.builtIn).toBe(true);
    }
  });

  it('are found by id, and nothing else is', () => {
    expect(builtInRole('operator')?.name).toBe('operator');
    expect(builtInRole('night-shift')).toBeUndefined();
  });
});

describe('permissions a role may be given', () => {
  it('accepts any subset of the vocabulary, the empty one and all of it included', () => {
    expect(create({ name: 'Night shift', permissions: [] })).toEqual([]);
    expect(create({ name: 'Night shift', permissions: ['alarms:ack', 'fleet:read'] })).toEqual([]);
    expect(create({ name: 'Night shift', permissions: [...PERMISSIONS] })).toEqual([]);
  });

  it.each([['read'], ['fleet:write'], ['Admin'], ['*'], ['']])('refuses %j with a 400 naming the field and the vocabulary', (unknown) => {
    const [problem, ...more] = create({ name: 'Night shift', permissions: ['fleet:read', unknown] });
    expect(more).toEqual([]);
    expect(problem?.field).toBe('body.permissions[1]');
    expect(problem?.message).toBe(`body.permissions[1] must be a permission: one of ${PERMISSIONS.join(', ')}`);
  });

  it('refuses a permission named twice', () => {
    expect(create({ name: 'Night shift', permissions: ['fleet:read', 'fleet:read'] }).map((p) => p.field)).toEqual(['body.permissions']);
  });

  it('PUT takes description, permissions or both, nothing else and not nothing', () => {
    expect(update({ permissions: ['fleet:read'] })).toEqual([]);
    expect(update({ description: 'nights' })).toEqual([]);
    expect(update({ description: 'nights', permissions: [] })).toEqual([]);
    expect(update({}).length).toBeGreaterThan(0);
    expect(update({ name: 'Renamed' }).map((p) => p.field)).toEqual(['body.name']);
    expect(update({ permissions: ['read'] }).map((p) => p.field)).toEqual(['body.permissions[0]']);
  });
});
