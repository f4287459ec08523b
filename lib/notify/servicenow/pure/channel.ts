import { Invalid } from '#lib/shared/errors';
import type { ServiceNowChannel, ServiceNowInput } from '../../types';

/**
 * A ServiceNow channel's own rules, apart from the other channel types: which credentials it
 * takes, how they are stored and how they are answered. Its password (or OAuth client secret)
 * is stored as a webhook's signing secret is, in the channel item's `secret`, read only to send,
 * and answered only as this mask, which PUT takes back to mean "keep the stored one".
 */
export const MASKED_CREDENTIAL = '********';

/** The credentials of an input, checked: exactly one of the two pairs, complete; 400 naming the field otherwise. */
export const credentialsOf = (input: ServiceNowInput): { auth: 'basic'; username: string; secret: string } | { auth: 'oauth'; clientId: string; secret: string } => {
  const basic = input.username !== undefined || input.password !== undefined;
  const oauth = input.clientId !== undefined || input.clientSecret !== undefined;
  const invalid = (field: string, message: string) => new Invalid(`${field} ${message}`, [{ field: `body.${field}`, message: `body.${field} ${message}` }]);
  if (basic && oauth) throw invalid('clientId', 'cannot come with username/password: give either basic auth (username, password) or OAuth client credentials (clientId, clientSecret)');
  if (oauth) {
    if (input.clientId === undefined) throw invalid('clientId', 'is required with clientSecret');
    if (input.clientSecret === undefined) throw invalid('clientSecret', 'is required with clientId');
    return { auth: 'oauth', clientId: input.clientId, secret: input.clientSecret };
  }
  if (input.username === undefined) throw invalid('username', 'is required (or clientId and clientSecret for OAuth client credentials)');
  if (input.password === undefined) throw invalid('password', 'is required with username');
  return { auth: 'basic', username: input.username, secret: input.password };
};

/** Why an instance URL is no ServiceNow instance by its form: it names the instance only (`https://<name>.service-now.com`), no path, query or fragment. */
export const instancePathProblem = (raw: string): string | undefined => {
  try {
    const url = new URL(raw);
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return 'instanceUrl must name the instance only, e.g. https://acme.service-now.com (no path or query)';
  } catch {
    return 'instanceUrl must be an absolute URL';
  }
  return undefined;
};

/** The instance's origin, the one form stored (`https://acme.service-now.com`). */
export const instanceOrigin = (raw: string): string => new URL(raw).origin;

/** The fields a ServiceNow channel stores besides its name (the secret apart). */
export const storedFields = (input: ServiceNowInput) => {
  const credentials = credentialsOf(input);
  const { secret, ...shown } = credentials;
  return { fields: { channelType: 'servicenow', instanceUrl: instanceOrigin(input.instanceUrl), ...shown }, secret };
};

/** A stored ServiceNow channel as answered: its credential masked. */
export const channelOf = (item: Record<string, unknown>): ServiceNowChannel => {
  const instanceUrl = String(item.instanceUrl);
  return item.auth === 'oauth'
    ? { type: 'servicenow', instanceUrl, auth: 'oauth', clientId: String(item.clientId), clientSecret: MASKED_CREDENTIAL }
    : { type: 'servicenow', instanceUrl, auth: 'basic', username: String(item.username), password: MASKED_CREDENTIAL };
};
