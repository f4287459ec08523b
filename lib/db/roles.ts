import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { BUILT_IN_ROLES, builtInRole, type Role } from '#lib/auth/roles';
import { Conflict, NotFound } from '#lib/errors';
import { doc, tableName } from './client';
import { queryAll, type Item, deleteExisting, putNew } from './helpers';

export interface NewRole {
  roleid: string;
  name: string;
  description: string;
  permissions: string[];
}

// Created roles live in one partition sorted by id; built-ins come from code (lib/auth/roles).
const PARTITION = 'ROLE';
const keys = (roleid: string) => ({ PK: PARTITION, SK: `ROLE#${roleid}` });

const fromItem = (item: Item): Role => ({
  roleid: String(item.roleid),
  name: String(item.name),
  description: String(item.description ?? ''),
  permissions: Array.isArray(item.permissions) ? item.permissions.map(String) : [],
  builtIn: false,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

const notFound = (roleid: string) => new NotFound(`Role ${roleid} not found`);

export const roles = {
  async create(role: NewRole): Promise<Role> {
    if (builtInRole(role.roleid)) throw new Conflict(`Role ${role.roleid} already exists`);
    const now = new Date().toISOString();
    const record: Role = { ...role, builtIn: false, createdAt: now, updatedAt: now };
    await putNew(
      { ...keys(role.roleid), type: 'Role', ...role, createdAt: now, updatedAt: now, version: 1 },
      () => new Conflict(`Role ${role.roleid} already exists`),
    );
    return record;
  },

  async list(): Promise<Role[]> {
    const items = await queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PARTITION },
    });
    return [...BUILT_IN_ROLES, ...items.map(fromItem)];
  },

  async find(roleid: string): Promise<Role | undefined> {
    const builtIn = builtInRole(roleid);
    if (builtIn) return builtIn;
    const { Item: item } = await doc.send(new GetCommand({ TableName: tableName(), Key: keys(roleid) }));
    return item ? fromItem(item) : undefined;
  },

  async get(roleid: string): Promise<Role> {
    const role = await this.find(roleid);
    if (!role) throw notFound(roleid);
    return role;
  },

  /** Deletes a created role; the caller has checked that no user holds it. */
  async remove(roleid: string): Promise<void> {
    if (builtInRole(roleid)) throw new Conflict(`Role ${roleid} is built in and cannot be deleted`);
    await deleteExisting(keys(roleid), () => notFound(roleid));
  },
};
