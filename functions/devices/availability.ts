import http from '#generated/routes/devicesAvailability';
import { roomAvailability } from '#lib/devices/availability';
import { availabilityCsv } from '#lib/devices/csv';
import { csvAnswer } from '#lib/shared/csv';

// POST /videoDevice/room/availability?format {device filter, from?, to?} -> {from, to, rooms (worst first), overall}, rooms within the caller's scope; 422
// format=csv: the rooms as rows (one document: a room's availability is computed with all of them)
export const handler = http(async ({ body, query, principal }) => {
  const answer = await roomAvailability(body, principal.scope);
  return query.format === 'csv' ? csvAnswer(availabilityCsv(answer), { items: answer.rooms }) : { statusCode: 200, body: answer };
});
