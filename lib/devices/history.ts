import * as connectivity from '#lib/devices/repository/connectivity';
import type { Page } from '#lib/store/paging';
import { Invalid } from '#lib/shared/errors';
import type { AccessScope } from '#lib/shared/access';
import { historyDays } from '#lib/shared/retention';
import { deviceWithin } from './access';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * GET /videoDevice/{devicesn}/history: a known device's connectivity changes, newest first (404 unknown
 * device, or one outside the caller's scope); default window: a retention up to `to` (now).
 */
export const deviceHistory = async (
  devicesn: string,
  query: { from?: string; to?: string; limit?: string; cursor?: string },
  access: AccessScope = [],
): Promise<Page<{ at: string; connected: boolean; inCallStatus: string }>> => {
  await deviceWithin(devicesn, access);
  const now = Date.now();
  const end = query.to ? Date.parse(query.to) : now;
  const from = new Date(query.from ? Date.parse(query.from) : end - historyDays() * DAY_MS).toISOString();
  const to = new Date(end).toISOString();
  if (from > to) throw new Invalid('from must not be after to', [{ field: 'queryStringParameters.from', message: 'from must not be after to' }]);
  return connectivity.history(devicesn, from, to, query.limit ? Number(query.limit) : 100, query.cursor);
};
