/**
 * A role: users and services carry its `roleid`; what it grants is read per request
 * (lib/access/rolePermissions.ts). `permissions` as stored: a created role from before the
 * vocabulary may hold other names, which grant nothing.
 */
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
export const OPERATOR_ROLE = 'operator';
