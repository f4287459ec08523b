import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable } from '#lib/store/definition';
import { startLocalStore } from '../../scripts/local/dynamo';

const dir = mkdtempSync(join(tmpdir(), 'store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clientFor = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

describe('embedded store (npm start)', () => {
  // two JVM starts on a busy machine: more than the project's 20 s default
  it('keeps data on disk across a restart', { timeout: 90_000 }, async () => {
    const first = await startLocalStore({ path: dir });
    const client = clientFor(first.endpoint);
    await ensureTable(client, 'persist');
    await DynamoDBDocumentClient.from(client).send(new PutCommand({ TableName: 'persist', Item: { PK: 'a', SK: 'b', v: 42 } }));
    client.destroy();
    await first.close();

    const second = await startLocalStore({ path: dir });
    const again = clientFor(second.endpoint);
    const { created } = await ensureTable(again, 'persist');
    const { Item } = await DynamoDBDocumentClient.from(again).send(new GetCommand({ TableName: 'persist', Key: { PK: 'a', SK: 'b' } }));
    again.destroy();
    await second.close();

    expect(created).toBe(false);
    expect(Item?.v).toBe(42);
  });

  it('starts with a clear error when its port is taken by something else', { timeout: 60_000 }, async () => {
    const store = await startLocalStore();
    const port = Number(new URL(store.endpoint).port);
    try {
      await expect(startLocalStore({ port })).rejects.toThrow(/DynamoDB Local cannot start: port \d+ is already in use/);
    } finally {
      await store.close();
    }
  });

  it.runIf(process.platform === 'linux')('ends with the process that started it, even one killed outright (no orphan JVM)', { timeout: 60_000 }, async () => {
    const root = resolve(import.meta.dirname, '..', '..');
    const script = "require('./scripts/local/dynamo.ts').startLocalStore().then((s) => console.log(s.pid))";
    const parent = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const jvm = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
      parent.once('exit', (code) => reject(new Error(`the parent ended first (${code})`)));
    });
    const isJvm = () => existsSync(`/proc/${jvm}`) && readFileSync(`/proc/${jvm}/cmdline`).includes('DynamoDBLocal.jar');
    expect(isJvm()).toBe(true);
    parent.kill('SIGKILL');
    // the kernel's parent-death signal ends it; poll until it is gone (or the test's own timeout fails it)
    while (isJvm()) await new Promise((r) => setTimeout(r, 100));
    expect(isJvm()).toBe(false);
  });
});
