import http from '#generated/routes/reportsCreate';
import { createSchedule } from '#lib/reports/service';

// POST /reports -> 201 the schedule with id and nextReportAt; 422 naming the field (zone, weekday, a channel unknown or
// not the caller's to name: docs/guide/rules/reports.md "Report runs are budgeted, and a schedule names only channels shared with its writer");
// 404 body.scope outside the caller's scope; 409 the stage's cap of schedules
export const handler = http(async ({ body, principal }) => ({ statusCode: 201, body: await createSchedule(body, principal) }));
