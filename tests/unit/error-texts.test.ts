import { describe, expect, it } from 'vitest';
import { describeSchemaErrors, summarize } from '#lib/shared/validation';
import { compiledValidator } from '../support/schemas';

const messageFor = async (validator: string, event: Record<string, unknown>) => {
  const validate = await compiledValidator(validator);
  expect(validate(event)).toBe(false);
  return summarize(describeSchemaErrors(validate.errors));
};

describe('error texts name only the real problem', () => {
  it('a bad query parameter is named alone, without "queryStringParameters must be null"', async () => {
    const message = await messageFor('alarmsList', { queryStringParameters: { severity: '9' } });
    expect(message).toBe('Invalid request: queryStringParameters.severity must be an integer from 1 to 4');
  });

  it('an unknown query parameter is named alone', async () => {
    const message = await messageFor('alarmsOutbox', { queryStringParameters: { colour: 'red' } });
    expect(message).toBe('Invalid request: queryStringParameters.colour is not an allowed property');
  });

  it('a wrong type where null is also allowed says what is expected, not "must be null"', async () => {
    const message = await messageFor('filterRecordsUpsert', { pathParameters: { id: '1' }, body: { name: 'a', description: '', deviceSN: 5 } });
    expect(message).not.toContain('must be null');
    expect(message).toContain('body.deviceSN');
  });

  it('the username rule names every reserved name, me included', async () => {
    const message = await messageFor('usersGet', { pathParameters: { user: 'me' } });
    expect(message).toBe('Invalid request: pathParameters.user must be 3 to 64 letters, digits, dots, underscores or hyphens, and not one of all, me, signin, logout');
  });
});
