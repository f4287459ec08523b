import http from '#generated/routes/reportsRun';
import { mailerFromEnv } from '#lib/adapters/mail';
import { runScheduleNow } from '#lib/reports/service';

const mailer = mailerFromEnv();

// POST /reports/{id}/run -> 200 the report of the period so far and one delivery per channel (sent once before the answer);
// 404 unknown or outside the caller's scope; 429 past the report's or the caller's run budget (docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer")
export const handler = http(async ({ path, principal }) => ({ statusCode: 200, body: await runScheduleNow(path.id, principal, mailer, Date.now() + 15_000) }));
