import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';
import { PERMISSIONS, type Permission } from '#lib/shared/access';
import { api } from './api';

/**
 * Principals for access tests (DESIGN §5), made over HTTP with the first admin's token: for each
 * permission, a user whose role holds exactly it, and one whose role holds every other one.
 */
const BASE = '/api/authService';
export const PRINCIPAL_PASSWORD = 'e2e-principal-password-7';

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export const signIn = async (username: string, password: string): Promise<string> => {
  const res = await api<{ accessToken: string }>('POST', `${BASE}/auth/signin`, { body: { username, password } });
  expect(res.status, `sign-in of ${username}`).toBe(200);
  return res.body.accessToken;
};

export const adminToken = () => signIn(inject('admin').username, inject('admin').password);

/** A created role holding exactly `permissions`; answers its id. */
export const createRole = async (token: string, permissions: readonly Permission[]): Promise<string> => {
  const res = await api<{ roleid: string }>('POST', `${BASE}/role`, { token, body: { name: unique('access role'), permissions } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.roleid;
};

/** A user holding `role` (and `scope`, when given), signed in: answers its username and token. */
export const userWith = async (token: string, role: string, scope?: { region: string; location?: string }[]) => {
  const username = unique('principal');
  const body = { username, password: PRINCIPAL_PASSWORD, email: `${username}@example.com`, name: 'Access test', role, ...(scope ? { scope } : {}) };
  const res = await api('POST', `${BASE}/auth`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { username, token: await signIn(username, PRINCIPAL_PASSWORD) };
};

/** Per permission: a token holding only it (`with`) and one holding all the others (`without`). */
export const tokensByPermission = async (): Promise<Record<Permission, { with: string; without: string }>> => {
  const admin = await adminToken();
  const entries = await Promise.all(
    PERMISSIONS.map(async (permission) => {
      const [only, others] = await Promise.all([
        createRole(admin, [permission]),
        createRole(admin, PERMISSIONS.filter((p) => p !== permission)),
      ]);
      const [withIt, withoutIt] = await Promise.all([userWith(admin, only), userWith(admin, others)]);
      return [permission, { with: withIt.token, without: withoutIt.token }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Permission, { with: string; without: string }>;
};
