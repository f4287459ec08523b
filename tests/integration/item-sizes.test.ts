import { describe, expect, it } from 'vitest';
import { filterConfigs } from '#lib/config/filterConfigs/repository';
import { itemBytes, MAX_ITEM_BYTES } from '#lib/shared/sizes';
import { MAX_BODY_BYTES } from '#lib/http/body';
import { handler as upsert } from '../../functions/filterConfigs/upsert';
import { handler as upsertList } from '../../functions/filterConfigs/upsertList';
import { jsonEvent, lambdaContext } from '../support/events';

const call = async (h: typeof upsert, event: Parameters<typeof upsert>[0]) => {
  const res = await h(event, lambdaContext());
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
};

/** 256 characters of three UTF-8 bytes each, distinct per index. */
const wide = (i: number) => `${'中'.repeat(250)}${String(i).padStart(6, '0')}`;

describe('item sizes are counted in UTF-8 bytes, as DynamoDB counts them (issue 24 item 8)', () => {
  it('a list-form upsert that would grow a configuration past 400 KB (UTF-8) is 400 and stores nothing', async () => {
    const rooms = Array.from({ length: 320 }, (_, i) => ({ roomName: wide(i) }));
    const nested = { region: { regionName: 'EMEA', location: [{ locationName: 'A', room: rooms }] } };
    expect(Buffer.byteLength(JSON.stringify(nested))).toBeLessThan(MAX_BODY_BYTES);
    expect((await call(upsert, jsonEvent(nested, { pathParameters: { id: '7' } }))).status).toBe(200);

    // the list form keeps the rooms of "A" and adds 320 wide locations: each body is within the
    // limit, the merged item is about 496 KB in UTF-8 (but fewer than 400,000 characters)
    const locations = [{ locationName: 'A' }, ...Array.from({ length: 320 }, (_, i) => ({ locationName: wide(i) }))];
    const list = [{ id: 7, region: 'EMEA', locations }];
    expect(Buffer.byteLength(JSON.stringify(list))).toBeLessThan(MAX_BODY_BYTES);
    const merged = { region: 'EMEA', locations: [{ locationName: 'A', rooms }, ...locations.slice(1).map((l) => ({ ...l, rooms: [] }))] };
    expect(itemBytes(merged)).toBeGreaterThan(MAX_ITEM_BYTES);
    expect(JSON.stringify(merged).length).toBeLessThan(MAX_ITEM_BYTES);

    const res = await call(upsertList, jsonEvent(list));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'body[0].locations', message: expect.stringContaining('UTF-8') }]);
    expect((await filterConfigs.get(7)).locations).toHaveLength(1);
  });

  it('the per-id form is checked the same way', async () => {
    await expect(
      filterConfigs.replace({ id: 8, region: 'EMEA', locations: [{ locationName: 'B', rooms: Array.from({ length: 600 }, (_, i) => ({ roomName: wide(i) })) }] }),
    ).rejects.toMatchObject({ details: [{ field: 'body.region.location' }] });
    await expect(filterConfigs.get(8)).rejects.toMatchObject({ statusCode: 404 });
  });
});
