import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as audit from '#lib/access/audit/repository';
import { intervals } from '#lib/config/intervals/repository';
import { INTERVAL_FIELDS } from '#lib/config/intervals/types';
import { handler as createInterval } from '../../functions/intervals/create';
import { jsonEvent, lambdaContext } from '../support/events';

/*
 * A change and its audit record land together or not at all (docs/adr/0550): a process killed
 * (SIGKILL) at any point of an audited change leaves neither or both, never a change without its
 * record nor a record of a change that did not happen.
 */
const root = join(__dirname, '..', '..');

/** Runs PUT /intervals/{id} in a child that halts at `haltAt` (tests/support/audit-child.ts), then kills it. */
const killedUpdate = async (id: number, value: number, haltAt: string): Promise<'halted' | 'done'> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/audit-child.ts'], {
    cwd: root,
    env: { ...process.env, HALT_AT: haltAt, INTERVAL_ID: String(id), CHILD_VALUE: String(value) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const reached = await new Promise<'halted' | 'done'>((resolve, failed) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      if (text.includes('HALTED')) resolve('halted');
      else if (text.includes('DONE')) resolve('done');
    });
    child.once('exit', (code) => failed(new Error(`the change exited (${code}) before halting or answering`)));
  });
  child.kill('SIGKILL');
  return reached;
};

describe('an audited change killed between its writes', () => {
  it('leaves neither the change nor its record, or both, wherever it dies', async () => {
    const created = await createInterval(jsonEvent(Object.fromEntries(INTERVAL_FIELDS.map((field) => [field, 30])), { httpMethod: 'POST', resource: '/intervals' }), lambdaContext());
    const id = (JSON.parse(created.body) as { id: number }).id;
    const updatesRecorded = async () => (await audit.query({ targetType: 'interval', targetId: String(id), action: 'PUT /intervals/{id}' }, 50)).items.length;

    let changes = 0;
    const reached: string[] = [];
    for (const [i, haltAt] of ['before-1', 'after-1', 'before-2', 'after-2', 'before-3'].entries()) {
      const value = 100 + i;
      reached.push(`${haltAt}:${await killedUpdate(id, value, haltAt)}`);
      const changed = (await intervals.get(id)).intervalDeviceStatus === value;
      if (changed) changes++;
      expect({ haltAt, records: await updatesRecorded() }).toEqual({ haltAt, records: changes });
    }
    // the points before the first write and after the last both happened: nothing, then a whole change
    expect(reached[0]).toBe('before-1:halted');
    expect(changes).toBeGreaterThan(0);
    expect(changes).toBeLessThan(5);
  }, 120_000);
});
