import { http } from '#lib/http';
import { adminOnly } from '#lib/auth/authenticate';
import { ensureAccountsTable } from '#lib/auth/table';

// POST /api/authService/service/table -> 200 once the (single) table is ACTIVE (admin)
export const handler = http({ auth: adminOnly }, async () => ({
  statusCode: 200,
  body: await ensureAccountsTable(),
}));
