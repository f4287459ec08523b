import { DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fullPass } from '#lib/alarms/engine/fullPass';
import { outboxMailer } from '#lib/adapters/mail';
import * as alarms from '#lib/alarms/repository/alarms';
import { doc, tableName } from '#lib/store/client';
import * as connectivity from '#lib/devices/repository/connectivity';
import { revokedTokens } from '#lib/access/repository/sessions';
import * as watchers from '#lib/watchers/repository';
import { recordRoomCounts } from '#lib/rollups/availability';
import { syncDevices } from '#lib/inventory/sync';
import { device, fixed, offlineWatcher, unique } from '../support/fleet';
import { RevokedTokenEntity } from '#lib/access/entities';
import { AlarmEntity } from '#lib/alarms/entities';
import { rollupPk } from '#lib/rollups/entities';

/**
 * TTL deletes lazily (up to days after expiry; the table has it enabled, as in AWS): readers treat an item whose
 * `expiresAt` has passed as absent (DESIGN §3; issue 23 finding 8). And the revoked-token check
 * reads strongly consistently (DESIGN §5).
 */
const nowSeconds = () => Math.floor(Date.now() / 1000);
const expire = (key: Record<string, unknown>) =>
  doc.send(new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: 'SET expiresAt = :past', ExpressionAttributeValues: { ':past': nowSeconds() - 60 } }));

afterEach(() => vi.restoreAllMocks());

describe('expired items are absent', () => {
  it('the table has TTL enabled on expiresAt, as serverless.yml has it in AWS', async () => {
    const { TimeToLiveDescription } = await doc.send(new DescribeTimeToLiveCommand({ TableName: tableName() }));
    expect(TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: 'expiresAt' });
  });

  it('alarms.get answers a cleared alarm until its expiresAt, and nothing after it though the item is still stored', async () => {
    const region = unique('EXP');
    const sn = `${region}-1`;
    const state = { connected: false };
    const provider = fixed(() => [device(region, sn, 'A', state.connected)]);
    await syncDevices(provider);
    const watcherId = await watchers.create(offlineWatcher(region, `${unique('ops')}@example.com`));
    const evaluate = () => fullPass({ mailer: outboxMailer(), deadline: Date.now() + 30_000 });
    await evaluate();
    state.connected = true;
    await syncDevices(provider);
    await evaluate();

    const pair = { watcherId, devicesn: sn };
    expect(await alarms.get(pair)).toMatchObject({ open: false, devicesn: sn });
    const key = AlarmEntity.key({ watcherId, devicesn: sn });
    await expire(key);
    const { Item } = await doc.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    expect(Item).toBeDefined(); // TTL has not deleted it (yet)
    expect(await alarms.get(pair)).toBeUndefined();
  });

  it('availability rollups past their expiresAt are neither answered nor the input of the next advance', async () => {
    const place = { region: unique('EXP'), location: 'Paris', room: 'R' };
    const HOUR = 3_600_000;
    const t0 = Date.now() - 3 * HOUR;
    const iso = (ms: number) => new Date(ms).toISOString();
    await recordRoomCounts(place, { connected: 1, observed: 2 }, iso(t0));
    const days = [iso(t0).slice(0, 10), iso(Date.now()).slice(0, 10)] as const;
    expect(await connectivity.rollups(place, ...days)).not.toHaveLength(0);
    expect(await connectivity.latestRollup(place)).toMatchObject({ connected: 1, observed: 2 });

    const { Items = [] } = await doc.send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': rollupPk(place) } }),
    );
    expect(Items.length).toBeGreaterThan(0);
    for (const item of Items) await expire({ PK: item.PK, SK: item.SK });

    expect(await connectivity.rollups(place, ...days)).toEqual([]);
    expect(await connectivity.latestRollup(place)).toBeUndefined();
  });

  it('a revoked token record past its expiresAt is not a revocation, and the check reads strongly consistently', async () => {
    const send = vi.spyOn(doc, 'send');
    const jti = unique('jti');
    await revokedTokens.revoke(jti, nowSeconds() + 600);
    expect(await revokedTokens.isRevoked(jti)).toBe(true);
    const reads = send.mock.calls.map(([command]) => command).filter((command) => command instanceof GetCommand);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect((read as GetCommand).input.ConsistentRead).toBe(true);
    await expire(RevokedTokenEntity.key(jti));
    expect(await revokedTokens.isRevoked(jti)).toBe(false);
  });
});
