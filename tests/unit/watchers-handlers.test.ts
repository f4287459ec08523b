import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiEvent, lambdaContext } from '../support/events';

// Store failures are unknown errors: the handlers must answer the generic 500 JSON.
vi.mock('#lib/watchers/repository', () => ({ fieldValues: vi.fn(), list: vi.fn() }));
vi.mock('#lib/store/definition', () => ({ ensureTable: vi.fn() }));
// the audited createTable stores its audit record (lib/access/audit/log.ts): here, nowhere
vi.mock('#lib/access/audit/repository', () => ({ append: vi.fn(async () => undefined) }));
// the SDK client module is still loaded; its notice about this machine's Node 20 is noise here
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const watchers = await import('#lib/watchers/repository');
const { ensureTable } = await import('#lib/store/definition');
const storeDown = Object.assign(new Error('Requested resource not found'), { name: 'ResourceNotFoundException' });

const call = async (module: Promise<{ handler: (e: ReturnType<typeof apiEvent>, c: ReturnType<typeof lambdaContext>) => Promise<{ statusCode: number; body: string; headers?: Record<string, unknown> }> }>) => {
  const { handler } = await module;
  const res = await handler(apiEvent({ httpMethod: 'GET' }), lambdaContext());
  return { status: res.statusCode, type: res.headers?.['content-type'], body: JSON.parse(res.body) as unknown };
};

beforeEach(() => {
  process.env.TABLE_NAME = 'unit-watchers';
  vi.mocked(watchers.fieldValues).mockReset();
  vi.mocked(ensureTable).mockReset();
});

describe('alarm configuration filter lists', () => {
  const lists = [
    ['dashboards', 'dashboard', import('../../functions/alarmConfigLists/dashboards')],
    ['alarmservices', 'service', import('../../functions/alarmConfigLists/services')],
    ['alarmtypes', 'type', import('../../functions/alarmConfigLists/types')],
  ] as const;

  it.each(lists)('GET /filter/%s answers the distinct %s values, sorted', async (_route, field, module) => {
    vi.mocked(watchers.fieldValues).mockResolvedValue(['b', 'a', 'b', undefined]);
    expect(await call(module)).toEqual({ status: 200, type: 'application/json', body: ['a', 'b'] });
    expect(watchers.fieldValues).toHaveBeenCalledWith(field);
  });

  it.each(lists)('GET /filter/%s answers 500 JSON when the store fails', async (_route, _field, module) => {
    vi.mocked(watchers.fieldValues).mockRejectedValue(storeDown);
    expect(await call(module)).toEqual({ status: 500, type: 'application/json', body: { message: 'Internal server error' } });
  });
});

describe('POST /watcher/createTable', () => {
  const module = import('../../functions/watchers/createTable');

  it('answers the integer 1 once the table is ensured', async () => {
    vi.mocked(ensureTable).mockResolvedValue({ created: false, status: 'ACTIVE' });
    expect(await call(module)).toEqual({ status: 200, type: 'application/json', body: 1 });
    expect(ensureTable).toHaveBeenCalledWith(expect.anything(), 'unit-watchers');
  });

  it('answers 500 JSON when the table cannot be ensured', async () => {
    vi.mocked(ensureTable).mockRejectedValue(new Error('AccessDenied'));
    expect(await call(module)).toEqual({ status: 500, type: 'application/json', body: { message: 'Internal server error' } });
  });
});
