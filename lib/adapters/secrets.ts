import { useStageSecret } from '#lib/store/cursor';

/**
 * Named secrets, never in the deployed environment in AWS: from the environment locally (npm start, tests, `serverless offline`),
 * in AWS from the SSM parameter named by `<NAME>_PARAM`, read at run time with decryption: a
 * SecureString, or a Secrets Manager secret through its SSM reference
 * (`/aws/reference/secretsmanager/<secret name>`). Fetched once per container, never logged,
 * never in the template or the function's configuration. Each function's role may read only the
 * parameters it names (resources/permissions.yml).
 */
const cache = new Map<string, Promise<string | undefined>>();
const MISSING_RETRY_MS = 60_000;

const fromSsm = async (parameterName: string): Promise<string | undefined> => {
  // loaded only when a parameter is configured: local bundles never initialise it
  const { SSMClient, GetParameterCommand } = await import('@aws-sdk/client-ssm');
  const client = new SSMClient({ maxAttempts: 3 });
  try {
    const { Parameter } = await client.send(new GetParameterCommand({ Name: parameterName, WithDecryption: true }));
    return Parameter?.Value;
  } catch (error) {
    // a parameter the operator has not created yet is a missing secret (each caller says what
    // it lacks, e.g. a receiver answers 401), not a server error; other failures still throw
    if ((error as { name?: string }).name === 'ParameterNotFound') return undefined;
    throw error;
  }
};

/**
 * The value of env `name`, else (in AWS) of the SSM parameter named by env `<name>_PARAM`, else
 * undefined. Under `serverless offline` only the environment counts: a local run never calls AWS.
 * `fresh` reads the parameter again (a credential a vendor refused may have been rotated). A
 * parameter named `/aws/reference/secretsmanager/<secret>` reads a Secrets Manager secret.
 */
export const secret = (name: string, fresh = false): Promise<string | undefined> => {
  const direct = process.env[name];
  if (direct) return Promise.resolve(direct);
  const parameterName = process.env[`${name}_PARAM`];
  if (!parameterName || process.env.IS_OFFLINE) return Promise.resolve(undefined);
  if (fresh) cache.delete(parameterName);
  let value = cache.get(parameterName);
  if (!value) {
    value = fromSsm(parameterName);
    // a failed fetch is retried by the next request rather than cached; a missing parameter is
    // asked again after a minute (the operator may create it), not on every request
    value.then(
      (found) => {
        if (found === undefined) setTimeout(() => cache.delete(parameterName), MISSING_RETRY_MS).unref();
      },
      () => cache.delete(parameterName),
    );
    cache.set(parameterName, value);
  }
  return value;
};

/**
 * Loads the stage's sealing secret (cursors, idempotent results) into lib/store/cursor.ts before a
 * request that needs it (generated bindings of those routes call it). In AWS a missing secret is
 * an error (a 500, logged), never a silent per-process key that would refuse other containers' cursors.
 */
export const loadStageSecret = async (): Promise<void> => {
  const value = await secret('CURSOR_SECRET');
  if (value) useStageSecret(value);
  else if (process.env.CURSOR_SECRET_PARAM && !process.env.IS_OFFLINE) throw new Error(`the stage secret ${process.env.CURSOR_SECRET_PARAM} is empty`);
};
