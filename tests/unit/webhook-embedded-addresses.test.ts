import { describe, expect, it } from 'vitest';
import { addressProblem, urlProblem } from '#lib/notify/address';

// IPv6 forms that carry an IPv4 address (metadata service, loopback, private) must not pass as public.
describe('webhook targets written as IPv6 that embeds an IPv4 address', () => {
  it.each([
    ['::169.254.169.254', 'IPv4-compatible metadata address'],
    ['::a9fe:a9fe', 'the same in hex'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
    ['64:ff9b::169.254.169.254', 'NAT64 of the metadata address'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
  ])('refuses %s (%s)', (address) => {
    expect(addressProblem(address, false)).toBeDefined();
    expect(urlProblem(`https://[${address}]/hook`, false)).toBeDefined();
  });

  it('still accepts a public IPv6 address', () => {
    expect(addressProblem('2606:4700:4700::1111', false)).toBeUndefined();
  });
});
