import { randomUUID } from 'node:crypto';
import { Conflict, NotFound } from '#lib/shared/errors';
import { accessScopeField, UserEntity as Users, USERS, userRoleKeys } from '#lib/access/entities';
import { collection } from '#lib/store/entity';
import { and, expr, patchOf } from '#lib/store/expression';
import { EXISTS, must, NEW } from '#lib/store/table';
import { transactHeld, type Action } from '#lib/store/transaction';

/** A user as every answer shows it (its entity's answer): never the hash, never token bookkeeping; no `scope`: unscoped. */
export type User = ReturnType<typeof Users.fromItem>;
export type NewUser = Omit<User, 'createdAt' | 'updatedAt'>;
/** What sign-in and token checks need; stays inside lib/. `incarnation`: new at every creation and password change (docs/adr/0061). */
export type Credentials = NonNullable<Awaited<ReturnType<typeof credentials>>>;

// Users in one partition sorted by name; GSI1 groups them by role.
const all = collection(USERS);
const notFound = (username: string) => new NotFound(`User ${username} not found`);

/** The put of a new user (its condition fails if it exists) and the record it answers; stored with its counts (lib/access/membership.ts). */
export const createAction = (user: NewUser, passwordHash: string): { action: Action; record: User } => {
  const now = new Date().toISOString();
  const { scope, ...rest } = user;
  const record: User = { ...rest, ...accessScopeField(scope), createdAt: now, updatedAt: now };
  const fields = { ...userRoleKeys(user.role, user.username), ...record, passwordHash, incarnation: randomUUID() };
  return { action: { put: Users.item(user.username, { ...fields, version: 1 }), condition: NEW }, record };
};

export const exists = (username: string) => new Conflict(`User ${username} already exists`);

/** Stores a new user counted by nothing (409 if it exists). */
export const create = async (user: NewUser, passwordHash: string): Promise<User> => {
  const { action, record } = createAction(user, passwordHash);
  await must(transactHeld([action]), () => exists(user.username));
  return record;
};

export const list = async (): Promise<User[]> => (await all.all()).map(Users.fromItem);

export const find = async (username: string): Promise<User | undefined> => (await credentials(username))?.user;

export const get = async (username: string): Promise<User> => must(find(username), () => notFound(username));

export const credentials = async (username: string) => {
  const item = await Users.read(username, { consistent: true });
  if (!item) return undefined;
  return { user: Users.fromItem(item), passwordHash: String(item.passwordHash), incarnation: String(item.incarnation ?? '') };
};

/** New hash and a new incarnation: every token issued before stops working. */
export const setPassword = async (username: string, passwordHash: string): Promise<void> => {
  await must(Users.update(username, patchOf({ passwordHash, incarnation: randomUUID() }), EXISTS), () => notFound(username));
};

/** Users holding `role`, consistent; `countedAdminsOnly`: unscoped and already counted. */
export const countWithRole = async (role: string, options: { countedAdminsOnly?: boolean } = {}): Promise<number> => {
  const counted = options.countedAdminsOnly ? 'attribute_not_exists(#adminCountPending) AND attribute_not_exists(#scope)' : undefined;
  return (await all.all({ filter: and(expr('#role = :role', { role }), counted), project: ['PK'], consistent: true })).length;
};

const holding = (role: string, scoped?: boolean) =>
  and(expr('#role = :role', { role }), scoped === undefined ? undefined : scoped ? 'attribute_exists(#scope)' : 'attribute_not_exists(#scope)');

/** The delete of the user if it still holds `role` (and `scoped` as read), in the transaction that gives its counts back. */
export const removeHoldingAction = (username: string, role: string, scoped?: boolean): Action => ({ remove: Users.key(username), condition: holding(role, scoped) });

/** Deletes the user if it still holds `role` (and `scoped` as read); false when gone or changed. */
export const removeUserHolding = async (username: string, role: string, scoped?: boolean): Promise<boolean> =>
  Users.remove(username, and(expr('#role = :role', { role }), scoped === undefined ? undefined : scoped ? 'attribute_exists(#scope)' : 'attribute_not_exists(#scope)'));
