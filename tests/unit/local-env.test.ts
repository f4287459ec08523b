import { afterEach, describe, expect, it } from 'vitest';
import { externalEndpoint, externalStoreEnv, localPageOrigins } from '../../scripts/local/env';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('DYNAMODB_ENDPOINT (npm start against any DynamoDB)', () => {
  it('takes an http(s) URL, none when unset or empty, and refuses anything else', () => {
    expect(externalEndpoint(undefined)).toBeUndefined();
    expect(externalEndpoint('')).toBeUndefined();
    expect(externalEndpoint('http://localhost:8000/')).toBe('http://localhost:8000');
    expect(externalEndpoint('https://dynamodb.eu-west-1.amazonaws.com')).toBe('https://dynamodb.eu-west-1.amazonaws.com');
    expect(() => externalEndpoint('localhost:8000')).toThrow(/http\(s\) URL/);
    expect(() => externalEndpoint('not a url')).toThrow(/DYNAMODB_ENDPOINT/);
  });

  it("uses the shell's credentials: a profile is not hidden behind dummy keys", () => {
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_PROFILE = 'dev';
    const env = externalStoreEnv('https://dynamodb.eu-west-1.amazonaws.com');
    expect(env.AWS_ENDPOINT_URL_DYNAMODB).toBe('https://dynamodb.eu-west-1.amazonaws.com');
    expect(env.AWS_ACCESS_KEY_ID).toBeUndefined();
    delete process.env.AWS_PROFILE;
    expect(externalStoreEnv('http://localhost:8000').AWS_ACCESS_KEY_ID).toBe('local');
  });
});

describe("npm start's default CORS allow-list", () => {
  it('admits each page port under localhost and 127.0.0.1, and nothing else', () => {
    expect(localPageOrigins([3001]).split(',')).toEqual(['http://localhost:3001', 'http://127.0.0.1:3001']);
    expect(localPageOrigins([3001, 8080]).split(',')).toEqual(['http://localhost:3001', 'http://127.0.0.1:3001', 'http://localhost:8080', 'http://127.0.0.1:8080']);
  });
});
