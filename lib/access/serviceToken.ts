import type { APIGatewayProxyEvent } from 'aws-lambda';
import { withAuthOutcome } from '#lib/access/audit/outcome';
import { serviceCredentials } from '#lib/access/repository/services';
import { Unauthorized } from '#lib/shared/errors';
import { serviceSecretMatches } from './serviceSecrets';
import { issueAccessToken, privateKey } from './sign';
import type { SecretSource } from './signin';
import { ACCESS_TOKEN_SECONDS } from './tokens';

/**
 * The client-credentials exchange of a registered service (DESIGN §5): id and secret for an
 * access token signed like a user's (`knd: service`, `sub` the service id, `inc` its current
 * incarnation). Like sign-in it holds the signing key, so only its function bundles this module.
 */

interface ServiceTokenAnswer {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

// One body for an unknown id, a wrong secret and an inactive service.
const INVALID_CREDENTIALS = 'Invalid service id or secret';

export const exchangeServiceSecret = async (secret: SecretSource, id: string, presented: string): Promise<ServiceTokenAnswer> => {
  const found = await serviceCredentials(id);
  const matches = serviceSecretMatches(presented, found?.secretHash);
  if (!found || !matches || !found.service.active || !found.incarnation) throw new Unauthorized(INVALID_CREDENTIALS);
  const { service, incarnation } = found;
  const { token } = await issueAccessToken(await privateKey(secret), { username: service.id, role: service.role, incarnation, kind: 'service' });
  return { accessToken: token, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS };
};

/** The exchange, its outcome in the audit log (issued, or refused: the id of a known service, never the secret). */
export const exchangeServiceSecretRecorded = (secret: SecretSource, id: string, presented: string, request: APIGatewayProxyEvent): Promise<ServiceTokenAnswer> =>
  withAuthOutcome(
    request,
    { kind: 'service', id, exists: async () => (await serviceCredentials(id)) !== undefined },
    { succeeded: 'service-token-issued', refused: (error) => (error instanceof Unauthorized ? 'service-token-refused' : undefined) },
    () => exchangeServiceSecret(secret, id, presented),
  );
