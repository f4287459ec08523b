import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may go (SSRF guard): `https` URLs whose host resolves only to public unicast
 * addresses. Loopback, private, link-local (169.254.169.254, the instance metadata service),
 * unique-local, carrier-grade NAT, multicast and every other special range are refused, also
 * when an IPv6 address embeds one (IPv4-mapped). With `allowLocal` (ALLOW_LOCAL_WEBHOOKS=true,
 * npm start and tests only) a URL may also be `http` and point at loopback.
 */

/**
 * The special ranges, named and ordered as ipaddr.js 2.5 names them (the first range holding an
 * address names it): node's own `BlockList` matches them, which keeps ipaddr.js's 12 KiB out of
 * every bundle that sends notifications (tests/unit/webhook-ranges.test.ts holds the two equal).
 */
const V4_RANGES: Record<string, string[]> = {
  unspecified: ['0.0.0.0/8'], broadcast: ['255.255.255.255/32'], multicast: ['224.0.0.0/4'], linkLocal: ['169.254.0.0/16'],
  loopback: ['127.0.0.0/8'], carrierGradeNat: ['100.64.0.0/10'], private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
  reserved: ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4'],
  as112: ['192.175.48.0/24', '192.31.196.0/24'], amt: ['192.52.193.0/24'],
};
const V6_RANGES: Record<string, string[]> = {
  unspecified: ['::/128'], linkLocal: ['fe80::/10'], multicast: ['ff00::/8'], loopback: ['::1/128'], uniqueLocal: ['fc00::/7'],
  deprecatedSiteLocal: ['fec0::/10'], discard: ['100::/64'], rfc6145: ['::ffff:0:0:0/96'], rfc6052: ['64:ff9b::/96', '64:ff9b:1::/48'],
  '6to4': ['2002::/16'], teredo: ['2001::/32'], benchmarking: ['2001:2::/48'], amt: ['2001:3::/32'],
  as112v6: ['2001:4:112::/48', '2620:4f:8000::/48'], deprecatedOrchid: ['2001:10::/28'], orchid2: ['2001:20::/28'],
  droneRemoteIdProtocolEntityTags: ['2001:30::/28'], segmentRouting: ['5f00::/16'], reserved: ['2001::/23', '2001:db8::/32', '3fff::/20'],
};

const blockList = (family: 'ipv4' | 'ipv6', subnets: string[]) => {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [network, bits] = subnet.split('/');
    list.addSubnet(network!, Number(bits), family);
  }
  return list;
};

let ranges: { v4: [string, BlockList][]; v6: [string, BlockList][]; mapped: BlockList; compatible: BlockList } | undefined;
/** built on the first check, not at import */
const rangeLists = () =>
  (ranges ??= {
    v4: Object.entries(V4_RANGES).map(([name, subnets]) => [name, blockList('ipv4', subnets)]),
    v6: Object.entries(V6_RANGES).map(([name, subnets]) => [name, blockList('ipv6', subnets)]),
    mapped: blockList('ipv6', ['::ffff:0:0/96']),
    compatible: blockList('ipv6', ['::/96']),
  });

/** An IPv4 or IPv6 address (an IPv6 zone, `%eth0`, allowed). */
export const isAddress = (host: string): boolean => isIP(host) !== 0;

/** The special range an address is in (IPv4-mapped IPv6 judged as its IPv4 address); `unicast` is public. */
export const rangeOf = (address: string): string => {
  const bare = address.replace(/%.*$/, '');
  const { v4, v6, mapped, compatible } = rangeLists();
  const within = (lists: [string, BlockList][], family: 'ipv4' | 'ipv6') => lists.find(([, list]) => list.check(bare, family))?.[0] ?? 'unicast';
  if (isIP(bare) === 4) return within(v4, 'ipv4');
  // BlockList judges an IPv4-mapped address by the IPv4 rules
  if (mapped.check(bare, 'ipv6')) return within(v4, 'ipv6');
  const range = within(v6, 'ipv6');
  // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291) embeds an IPv4 address too
  return range === 'unicast' && compatible.check(bare, 'ipv6') ? 'ipv4Compatible' : range;
};

/** Why an address is not a webhook target, or undefined when it is public (or allowed loopback). */
export const addressProblem = (address: string, allowLocal: boolean): string | undefined => {
  if (!isAddress(address)) return `${address} is not an IP address`;
  const range = rangeOf(address);
  if (range === 'unicast' || (range === 'loopback' && allowLocal)) return undefined;
  return `${address} is a ${range} address; webhooks go to public addresses only`;
};

/**
 * Ports a webhook may use, from WEBHOOK_PORTS (comma-separated; default 443 and 8443, the ports
 * HTTPS services answer on): a URL naming another port (22, 25, 6379, ...) would turn the sender
 * into a probe of other services. Loopback URLs under ALLOW_LOCAL_WEBHOOKS
 * may use any port (local receivers take a free one).
 */
export const webhookPorts = (env: NodeJS.ProcessEnv = process.env): number[] => {
  const listed = (env.WEBHOOK_PORTS ?? '').split(',').map((port) => Number(port.trim())).filter((port) => Number.isInteger(port) && port > 0 && port < 65536);
  return listed.length > 0 ? listed : [443, 8443];
};

/** Literal IPv6 hosts come bracketed in URLs. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Why a URL is not a webhook target by its form alone (scheme, credentials, port, literal address). */
export const urlProblem = (raw: string, allowLocal: boolean, ports: readonly number[] = webhookPorts()): string | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.username || url.password) return 'url must not carry credentials';
  const host = bareHost(url.hostname);
  const local = allowLocal && (host === 'localhost' || (isAddress(host) && rangeOf(host) === 'loopback'));
  if (url.protocol === 'http:') {
    if (!allowLocal) return 'url must use https';
    if (!local) return 'url may use http only on loopback (ALLOW_LOCAL_WEBHOOKS)';
  } else if (url.protocol !== 'https:') {
    return 'url must use https';
  }
  const port = url.port === '' ? 443 : Number(url.port);
  if (!local && !ports.includes(port)) return `url port ${port} is not allowed; webhooks use port ${ports.join(' or ')} (WEBHOOK_PORTS)`;
  return isAddress(host) ? addressProblem(host, allowLocal) : undefined;
};

export type Lookup = (hostname: string) => Promise<string[]>;

/** Every address a name resolves to now (A and AAAA), as the operating system resolves it. */
const systemLookup: Lookup = async (hostname) => {
  // node:dns loads on the first name looked up: most engine runs send no webhook (DESIGN §8, docs/adr/0502)
  const { lookup } = await import('node:dns/promises');
  return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
};

/**
 * Why a URL is not a webhook target now: its form, then every address its host resolves to
 * (all must pass, so a name with one private address among public ones is refused).
 * Called when a channel is written and again before every send, since DNS can change.
 */
export const targetProblem = async (raw: string, allowLocal: boolean, lookup: Lookup = systemLookup): Promise<string | undefined> => {
  const problem = urlProblem(raw, allowLocal);
  if (problem) return problem;
  const host = bareHost(new URL(raw).hostname);
  if (isAddress(host)) return undefined;
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

/** What stands for a webhook URL's path and query once it has been answered: they are the credential. */
const MASK = '***';

/**
 * A webhook URL as answered after its creation: scheme, host and port, the path and query masked
 * (`https://hooks.slack.com/***`). Slack and Teams check nothing but the URL, so whoever reads
 * it whole can post into the channel; answers other than create and rotate-secret therefore mask it.
 */
export const maskedUrl = (raw: string): string => {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}/${MASK}`;
  } catch {
    return MASK;
  }
};

/** ALLOW_LOCAL_WEBHOOKS=true: set by npm start and the tests, never by a deployed stage. */
export const allowLocalWebhooks = (env: NodeJS.ProcessEnv = process.env): boolean => env.ALLOW_LOCAL_WEBHOOKS === 'true';
