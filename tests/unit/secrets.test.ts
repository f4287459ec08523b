import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** lib/adapters/secrets.ts: named secrets from the environment locally, from SSM in AWS (issue 23). */
const sent: { Name: string; WithDecryption: boolean }[] = [];
vi.mock('@aws-sdk/client-ssm', () => ({
  SSMClient: class {
    send(command: { input: { Name: string; WithDecryption: boolean } }) {
      sent.push(command.input);
      if (command.input.Name.endsWith('/not-created')) return Promise.reject(Object.assign(new Error('not found'), { name: 'ParameterNotFound' }));
      if (command.input.Name.endsWith('/throttled')) return Promise.reject(Object.assign(new Error('rate exceeded'), { name: 'ThrottlingException' }));
      return Promise.resolve({ Parameter: { Value: `value of ${command.input.Name}` } });
    }
  },
  GetParameterCommand: class {
    constructor(readonly input: unknown) {}
  },
}));

const saved = { ...process.env };
beforeEach(() => {
  sent.length = 0;
  vi.resetModules();
  for (const name of ['IS_OFFLINE', 'CURSOR_SECRET', 'CURSOR_SECRET_PARAM', 'SOME_TOKEN', 'SOME_TOKEN_PARAM']) delete process.env[name];
});
afterEach(() => {
  process.env = { ...saved };
});

describe('named secrets', () => {
  it('answer the environment first (npm start, tests)', async () => {
    const { secret } = await import('#lib/adapters/secrets');
    process.env.SOME_TOKEN = 'from-env';
    process.env.SOME_TOKEN_PARAM = '/device-monitoring/dev/some-token';
    expect(await secret('SOME_TOKEN')).toBe('from-env');
    expect(sent).toEqual([]);
  });

  it('read the SSM parameter named by <NAME>_PARAM with decryption, once per container', async () => {
    const { secret } = await import('#lib/adapters/secrets');
    process.env.SOME_TOKEN_PARAM = '/device-monitoring/prod/some-token';
    expect(await secret('SOME_TOKEN')).toBe('value of /device-monitoring/prod/some-token');
    expect(await secret('SOME_TOKEN')).toBe('value of /device-monitoring/prod/some-token');
    expect(sent).toEqual([{ Name: '/device-monitoring/prod/some-token', WithDecryption: true }]);
  });

  it('answer undefined for a parameter not created yet (the caller says what it lacks), and ask again after a minute', async () => {
    vi.useFakeTimers();
    try {
      const { secret } = await import('#lib/adapters/secrets');
      process.env.SOME_TOKEN_PARAM = '/device-monitoring/prod/not-created';
      expect(await secret('SOME_TOKEN')).toBeUndefined();
      expect(await secret('SOME_TOKEN')).toBeUndefined();
      expect(sent).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(61_000);
      expect(await secret('SOME_TOKEN')).toBeUndefined();
      expect(sent).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('throw any other SSM failure, and ask again at the next call', async () => {
    const { secret } = await import('#lib/adapters/secrets');
    process.env.SOME_TOKEN_PARAM = '/device-monitoring/prod/throttled';
    await expect(secret('SOME_TOKEN')).rejects.toThrow('rate exceeded');
    await expect(secret('SOME_TOKEN')).rejects.toThrow('rate exceeded');
    expect(sent).toHaveLength(2);
  });

  it('never call AWS under serverless offline', async () => {
    const { secret } = await import('#lib/adapters/secrets');
    process.env.IS_OFFLINE = 'true';
    process.env.SOME_TOKEN_PARAM = '/device-monitoring/dev/some-token';
    expect(await secret('SOME_TOKEN')).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('load the stage secret from Secrets Manager through its SSM reference, and seal cursors with it', async () => {
    process.env.CURSOR_SECRET_PARAM = '/aws/reference/secretsmanager/device-monitoring/prod/cursor-secret';
    const { loadStageSecret } = await import('#lib/adapters/secrets');
    const { stageSecret } = await import('#lib/store/cursor');
    expect(stageSecret()).toBeInstanceOf(Buffer); // a per-process key until loaded
    await loadStageSecret();
    expect(stageSecret()).toBe('value of /aws/reference/secretsmanager/device-monitoring/prod/cursor-secret');
    expect(sent).toHaveLength(1);
  });
});
