import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { addressProblem, isAddress, rangeOf } from '#lib/notify/address';

/*
 * The SSRF guard names an address's range with node's BlockList and a table of ipaddr.js's
 * special ranges (bundles stay smaller without ipaddr.js). ipaddr.js, a dev dependency now, is
 * the reference: both must name the same range for every address, so the answers that name a
 * range (`10.0.0.7 is a private address`) stay as they were. One departure: ipaddr.js reads
 * `::a.b.c.d` as IPv4-mapped, so a DNS answer `::8.8.8.8` (IPv4-compatible, printed dotted) passed.
 */
const reference = (address: string): string => {
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped: it is judged in the form a URL gives it (`::a00:1`)
  let ip = ipaddr.parse(address.includes(':') ? new URL(`http://[${address}]`).hostname.slice(1, -1) : address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  const v4Compatible = ip.kind() === 'ipv6' && range === 'unicast' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0);
  return v4Compatible ? 'ipv4Compatible' : range;
};

type Network<A> = [A, number];
/** ipaddr.js's own table (not in its typings): range name -> one network or a list of them */
const networksOf = <A>(kind: { prototype: object }) =>
  Object.values((kind.prototype as { SpecialRanges: Record<string, Network<A> | Network<A>[]> }).SpecialRanges).flatMap((subnets) =>
    Array.isArray(subnets[0]) ? (subnets as Network<A>[]) : [subnets as Network<A>],
  );

const v4Networks = networksOf<ipaddr.IPv4>(ipaddr.IPv4);
const v6Networks = networksOf<ipaddr.IPv6>(ipaddr.IPv6);

/**
 * An address inside (or near) one of the special networks: random bits below its prefix, a
 * prefix a little longer or shorter than the network's. Parts are octets (IPv4) or 16-bit groups (IPv6).
 */
const near = <A extends ipaddr.IPv4 | ipaddr.IPv6>(networks: Network<A>[], width: 8 | 16, write: (parts: number[]) => string) => {
  const all = width === 8 ? 0xff : 0xffff;
  const count = width === 8 ? 4 : 8;
  return fc.tuple(fc.constantFrom(...networks), fc.array(fc.nat(all), { minLength: count, maxLength: count }), fc.integer({ min: -2, max: 2 })).map(([[net, bits], noise, shift]) => {
    const network = 'octets' in net ? net.octets : net.parts;
    const prefix = Math.max(0, Math.min(network.length * width, bits + shift));
    return write(network.map((part, i) => {
      const mask = (all << (width - Math.max(0, Math.min(width, prefix - width * i)))) & all;
      return (part & mask) | (noise[i]! & ~mask & all);
    }));
  });
};
const v4Near = near(v4Networks, 8, (octets) => octets.join('.'));
const v6Near = near(v6Networks, 16, (parts) => new ipaddr.IPv6(parts).toString());
const anyV4 = fc.array(fc.nat(255), { minLength: 4, maxLength: 4 }).map((octets) => octets.join('.'));
const anyV6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((parts) => new ipaddr.IPv6(parts).toString());
/** IPv4-mapped and IPv4-compatible IPv6, in dotted and in hex form */
const embedded = fc.tuple(fc.oneof(v4Near, anyV4), fc.constantFrom('::ffff:', '::'), fc.boolean()).map(([v4, prefix, dotted]) => {
  if (dotted) return `${prefix}${v4}`;
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return `${prefix}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
});

describe('webhook address ranges', () => {
  it('names the range ipaddr.js names, for addresses in, near and far from every special network', () => {
    fc.assert(
      fc.property(fc.oneof(v4Near, v6Near, anyV4, anyV6, embedded), (address) => {
        expect(isAddress(address)).toBe(true);
        expect(rangeOf(address)).toBe(reference(address));
      }),
      { numRuns: 5_000 },
    );
  });

  it('names the range of every special network ipaddr.js knows, first and last address', () => {
    for (const [net, bits] of [...v4Networks, ...v6Networks]) {
      const cidr = `${net.toString()}/${bits}`;
      const first = ipaddr.IPv4.isValidCIDR(cidr) ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
      const last = ipaddr.IPv4.isValidCIDR(cidr) ? ipaddr.IPv4.broadcastAddressFromCIDR(cidr) : ipaddr.IPv6.broadcastAddressFromCIDR(cidr);
      for (const address of [first.toString(), last.toString()]) expect([address, rangeOf(address)]).toEqual([address, reference(address)]);
    }
  });

  it('refuses an IPv4-compatible address written dotted, as DNS answers print it (::8.8.8.8), like its hex form', () => {
    for (const address of ['::8.8.8.8', '::10.0.0.1', '::169.254.169.254']) {
      expect(rangeOf(address)).toBe('ipv4Compatible');
      expect(addressProblem(address, false)).toBe(`${address} is a ipv4Compatible address; webhooks go to public addresses only`);
    }
  });

  it('knows an address from a name as ipaddr.js does, for the hosts a URL can carry', () => {
    for (const host of ['127.0.0.1', '::1', 'fe80::1%eth0', '::ffff:10.0.0.1', 'example.com', 'localhost', '1.2.3', '::g', ''])
      expect([host, isAddress(host)]).toEqual([host, ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host))]);
  });
});
