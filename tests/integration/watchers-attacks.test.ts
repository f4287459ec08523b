import { describe, expect, it } from 'vitest';
import { handler as createWatcher } from '../../functions/watchers/create';
import { jsonEvent, lambdaContext } from '../support/events';
import { watcherInput } from '../support/fleet';

/* Hostile escalation and flapping settings on POST /watcher: 400s that say what the field takes. */
const create = async (body: unknown) => {
  const res = await createWatcher(jsonEvent(body), lambdaContext());
  return { status: res.statusCode, body: JSON.parse(res.body ?? '{}') as { message: string; errors: { field: string; message: string }[] } };
};

describe('POST /watcher flapping', () => {
  it.each([true, 'false', null, 0])('flapping %j is 400 saying it takes false or an object of settings', async (flapping) => {
    const answer = await create({ ...watcherInput(), flapping });
    expect(answer.status).toBe(400);
    const said = answer.body.errors.filter((e) => e.field === 'body.flapping').map((e) => e.message);
    expect(said).toContain('body.flapping must be false (every state change told)');
    expect(said).toContain('body.flapping must be object');
    expect(said.join(' ')).not.toContain('constant');
  });
});
