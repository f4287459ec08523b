import http from '#generated/routes/servicesCreateTable';
import { ensureTheTable } from '#lib/store/ensure';

// POST /api/authService/service/table -> 200 once the (single) table is ACTIVE (admin)
export const handler = http(async () => ({
  statusCode: 200,
  body: await ensureTheTable(),
}));
