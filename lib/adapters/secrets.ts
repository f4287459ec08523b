/**
 * Secrets come from the environment (local runs, tests) or, in AWS, from an SSM
 * SecureString named by `<NAME>_PARAM`: fetched once per container, never logged,
 * never in the template.
 */
const cache = new Map<string, Promise<string | undefined>>();

const fromSsm = async (parameterName: string): Promise<string | undefined> => {
  // loaded only when a parameter is configured: local bundles never initialise it
  const { SSMClient, GetParameterCommand } = await import('@aws-sdk/client-ssm');
  const client = new SSMClient({ maxAttempts: 3 });
  const { Parameter } = await client.send(new GetParameterCommand({ Name: parameterName, WithDecryption: true }));
  return Parameter?.Value;
};

/**
 * The value of env `name`, else of the SSM parameter named by env `<name>_PARAM`, else undefined.
 * `fresh` reads the parameter again (a credential a vendor refused may have been rotated). A
 * parameter named `/aws/reference/secretsmanager/<secret>` reads a Secrets Manager secret.
 */
export const secret = (name: string, fresh = false): Promise<string | undefined> => {
  const direct = process.env[name];
  if (direct) return Promise.resolve(direct);
  const parameterName = process.env[`${name}_PARAM`];
  if (!parameterName) return Promise.resolve(undefined);
  if (fresh) cache.delete(parameterName);
  let value = cache.get(parameterName);
  if (!value) {
    value = fromSsm(parameterName);
    // a failed fetch is retried by the next request rather than cached
    value.catch(() => cache.delete(parameterName));
    cache.set(parameterName, value);
  }
  return value;
};
