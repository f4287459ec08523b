import { Conflict } from '#lib/shared/errors';
import * as roles from '#lib/access/repository/roles';
import type { NewRole, RolePatch } from '#lib/access/repository/roles';
import { BUILT_IN_PERMISSIONS } from '#lib/shared/access';
import { ADMIN_ROLE, OPERATOR_ROLE, VIEWER_ROLE, type Role } from './types';

/**
 * Built-in roles are part of the code, not of the data: they exist in every table from the
 * first request on, cannot be deleted, and no created role can take their ids.
 */
export const BUILT_IN_ROLES: readonly Role[] = [
  {
    roleid: ADMIN_ROLE,
    name: 'admin',
    description: 'Every permission: manages users, roles, registered services and the audit log; reads and changes everything',
    permissions: [...BUILT_IN_PERMISSIONS.admin],
    builtIn: true,
  },
  {
    roleid: VIEWER_ROLE,
    name: 'viewer',
    description: 'Reads the fleet: devices, counts, alarms, history, availability, live updates',
    permissions: [...BUILT_IN_PERMISSIONS.viewer],
    builtIn: true,
  },
  {
    roleid: OPERATOR_ROLE,
    name: 'operator',
    description: 'Reads the fleet, acknowledges alarms, writes silences and watchers',
    permissions: [...BUILT_IN_PERMISSIONS.operator],
    builtIn: true,
  },
];

export const builtInRole = (roleid: string): Role | undefined => BUILT_IN_ROLES.find((role) => role.roleid === roleid);

/** The id of a role is its name, lower-cased, with runs of other characters turned into `-`. */
export const roleIdOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * The roles a client sees: the built-in ones (from code), then the stored ones by roleid. No
 * stored role can take a built-in id, and a built-in role is never stored.
 */
export const roleCatalog = {
  async list(): Promise<Role[]> {
    return [...BUILT_IN_ROLES, ...(await roles.list())];
  },

  async find(roleid: string): Promise<Role | undefined> {
    return builtInRole(roleid) ?? roles.find(roleid);
  },

  async get(roleid: string): Promise<Role> {
    return builtInRole(roleid) ?? roles.get(roleid);
  },

  async create(role: NewRole): Promise<Role> {
    if (builtInRole(role.roleid)) throw new Conflict(`Role ${role.roleid} already exists`);
    return roles.create(role);
  },

  /** A created role's description and/or permissions; its holders act with them from their next request. */
  async update(roleid: string, patch: RolePatch): Promise<Role> {
    if (builtInRole(roleid)) throw new Conflict(`Role ${roleid} is built in and cannot be changed`);
    return roles.update(roleid, patch);
  },
};
