import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { ensureAccountsTable } from '#lib/auth/table';

// POST /api/authService/role/createTable -> 200 once the (single) table is ACTIVE; built-in roles always exist (admin)
export const handler = http({ auth: adminOnly }, async () => ({
  statusCode: 200,
  body: await ensureAccountsTable(),
}));
