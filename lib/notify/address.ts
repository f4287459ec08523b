import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (SSRF guard): `https` URLs whose host resolves only to public unicast
 * addresses. Loopback, private, link-local (169.254.169.254, the instance metadata service),
 * unique-local, carrier-grade NAT, multicast and every other special range are refused, also
 * when an IPv6 address embeds one (IPv4-mapped). With `allowLocal` (ALLOW_LOCAL_WEBHOOKS=true,
 * npm start and tests only) a URL may also be `http` and point at loopback.
 */

/** The special range an address is in (IPv4-mapped IPv6 judged as its IPv4 address); `unicast` is public. */
export const rangeOf = (address: string): string => {
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291) embeds an IPv4 address too; ipaddr.js calls it unicast
  const v4Compatible = ip.kind() === 'ipv6' && range === 'unicast' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0);
  return v4Compatible ? 'ipv4Compatible' : range;
};

/** Why an address is not a webhook target, or undefined when it is public (or allowed loopback). */
export const addressProblem = (address: string, allowLocal: boolean): string | undefined => {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = rangeOf(address);
  if (range === 'unicast' || (range === 'loopback' && allowLocal)) return undefined;
  return `${address} is a ${range} address; webhooks go to public addresses only`;
};

/** Literal IPv6 hosts come bracketed in URLs. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Why a URL is not a webhook target by its form alone (scheme, credentials, literal address). */
export const urlProblem = (raw: string, allowLocal: boolean): string | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.username || url.password) return 'url must not carry credentials';
  const host = bareHost(url.hostname);
  if (url.protocol === 'http:') {
    if (!allowLocal) return 'url must use https';
    const local = host === 'localhost' || (ipaddr.isValid(host) && rangeOf(host) === 'loopback');
    if (!local) return 'url may use http only on loopback (ALLOW_LOCAL_WEBHOOKS)';
  } else if (url.protocol !== 'https:') {
    return 'url must use https';
  }
  return ipaddr.isValid(host) ? addressProblem(host, allowLocal) : undefined;
};

export type Lookup = (hostname: string) => Promise<string[]>;

/** Every address a name resolves to now (A and AAAA), as the operating system resolves it. */
export const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Why a URL is not a webhook target now: its form, then every address its host resolves to
 * (all must pass, so a name with one private address among public ones is refused).
 * Called when a channel is written and again before every send, since DNS can change.
 */
export const targetProblem = async (raw: string, allowLocal: boolean, lookup: Lookup = systemLookup): Promise<string | undefined> => {
  const problem = urlProblem(raw, allowLocal);
  if (problem) return problem;
  const host = bareHost(new URL(raw).hostname);
  if (ipaddr.isValid(host)) return undefined;
  let addresses: string[];
  try {
    addresses = await lookup(host);
  } catch {
    return `url host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `url host ${host} does not resolve`;
  for (const address of addresses) {
    const bad = addressProblem(address, allowLocal);
    if (bad) return `url host ${host} resolves to ${bad}`;
  }
  return undefined;
};

/** ALLOW_LOCAL_WEBHOOKS=true: set by npm start and the tests, never by a deployed stage. */
export const allowLocalWebhooks = (env: NodeJS.ProcessEnv = process.env): boolean => env.ALLOW_LOCAL_WEBHOOKS === 'true';
