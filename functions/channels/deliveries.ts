import http from '#generated/routes/channelsDeliveries';
import { channelDeliveries } from '#lib/notify/channels';

// GET /channels/{id}/deliveries?limit=&cursor= -> 200 {items, nextCursor} newest first; 400; 404 unknown
export const handler = http(async ({ path, query }) => ({
  statusCode: 200,
  body: await channelDeliveries(path.id, query.limit ? Number(query.limit) : 50, query.cursor),
}));
