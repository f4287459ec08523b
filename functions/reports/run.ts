import http from '#generated/routes/reportsRun';
import { mailerFromEnv } from '#lib/adapters/mail';
import { runScheduleNow } from '#lib/reports/service';

const mailer = mailerFromEnv();

// POST /reports/{id}/run -> 200 the report of the period so far and its deliveries after their first attempt;
// 404 unknown or outside the caller's scope
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await runScheduleNow(path.id, principal.scope, mailer, Date.now() + 15_000) }));
