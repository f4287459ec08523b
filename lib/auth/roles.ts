/** A role: users carry its `roleid`. Only `admin` manages accounts (DESIGN §5). */
export interface Role {
  roleid: string;
  name: string;
  description: string;
  permissions: string[];
  builtIn: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export const ADMIN_ROLE = 'admin';
export const VIEWER_ROLE = 'viewer';

/**
 * Built-in roles are part of the code, not of the data: they exist in every table from the
 * first request on, cannot be deleted, and no created role can take their ids.
 */
export const BUILT_IN_ROLES: readonly Role[] = [
  {
    roleid: ADMIN_ROLE,
    name: 'admin',
    description: 'Manages users, roles and registered services; reads everything',
    permissions: ['accounts:manage', 'roles:manage', 'services:manage', 'read'],
    builtIn: true,
  },
  {
    roleid: VIEWER_ROLE,
    name: 'viewer',
    description: 'Reads the dashboard; manages only its own password',
    permissions: ['read'],
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
