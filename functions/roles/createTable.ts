import http from '#generated/routes/rolesCreateTable';
import { ensureTheTable } from '#lib/store/ensure';

// POST /api/authService/role/createTable -> 200 once the (single) table is ACTIVE; built-in roles always exist (admin)
export const handler = http(async () => ({
  statusCode: 200,
  body: await ensureTheTable(),
}));
