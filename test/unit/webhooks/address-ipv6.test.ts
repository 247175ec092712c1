// IPv6 addresses an outgoing webhook may reach: global unicast only (2000::/3 outside its special ranges), and an
// IPv6 form that carries an IPv4 address is judged by that IPv4 address (docs/outgoing-webhooks.md, "Where Hark sends").
import { describe, expect, it } from 'vitest';
import { isPublicAddress, refusalOf, urlProblem, type AddressPolicy } from '#lib/webhooks/address.ts';

const aws: AddressPolicy = { allowLoopback: false, allowed: [] };
const local: AddressPolicy = { allowLoopback: true, allowed: [] };

describe('IPv6 receivers', () => {
  it.each([
    ['2606:2800:220:1:248:1893:25c8:1946', 'a public address'],
    ['2a00:1450:4001:80b::200e', 'a public address'],
    ['64:ff9b::5db8:d822', 'NAT64 of the public 93.184.216.34 (DNS64 in an IPv6-only network)'],
    ['64:ff9b::93.184.216.34', 'the same, written with the IPv4 address'],
    ['64:ff9b:1:5db8:d8:2208:808:808', 'local-use NAT64 whose every RFC 6052 position is public (93.184.216.34 … 8.8.8.8)'],
    ['2002:5db8:d822::1', '6to4 of the public 93.184.216.34'],
    ['::ffff:93.184.216.34', 'IPv4-mapped public address'],
  ])('allows %s (%s)', (address) => {
    expect(refusalOf(address, 'hooks.example.com', aws)).toBeUndefined();
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    // IPv4-compatible (::a.b.c.d, deprecated): never a receiver, and the metadata service through it least of all
    ['::a9fe:a9fe', 'hooks.example.com resolves to ::a9fe:a9fe, an IPv4-compatible address of 169.254.169.254, a linkLocal address'],
    ['::169.254.169.254', 'hooks.example.com resolves to ::a9fe:a9fe, an IPv4-compatible address of 169.254.169.254, a linkLocal address'],
    ['::10.0.0.1', 'hooks.example.com resolves to ::a00:1, an IPv4-compatible address of 10.0.0.1, a private address'],
    ['::7f00:1', 'hooks.example.com resolves to ::7f00:1, an IPv4-compatible address of 127.0.0.1, a loopback address'],
    ['::93.184.216.34', 'hooks.example.com resolves to ::5db8:d822, an IPv4-compatible address (not global unicast)'],
    // IPv4-mapped (::ffff:a.b.c.d): judged as the IPv4 address
    ['::ffff:169.254.169.254', 'hooks.example.com resolves to 169.254.169.254, a linkLocal address'],
    ['::ffff:a9fe:a9fe', 'hooks.example.com resolves to 169.254.169.254, a linkLocal address'],
    ['::ffff:192.168.0.1', 'hooks.example.com resolves to 192.168.0.1, a private address'],
    ['::ffff:127.0.0.1', 'hooks.example.com resolves to 127.0.0.1, a loopback address'],
    // IPv4-translated (::ffff:0:a.b.c.d)
    ['::ffff:0:a9fe:a9fe', 'hooks.example.com resolves to ::ffff:0:a9fe:a9fe, an IPv4-translated address of 169.254.169.254, a linkLocal address'],
    ['::ffff:0:5db8:d822', 'hooks.example.com resolves to ::ffff:0:5db8:d822, an IPv4-translated address (not global unicast)'],
    // NAT64, the embedded IPv4 address checked
    ['64:ff9b::a9fe:a9fe', 'hooks.example.com resolves to 64:ff9b::a9fe:a9fe, a NAT64 address of 169.254.169.254, a linkLocal address'],
    ['64:ff9b::10.1.2.3', 'hooks.example.com resolves to 64:ff9b::a01:203, a NAT64 address of 10.1.2.3, a private address'],
    ['64:ff9b::127.0.0.1', 'hooks.example.com resolves to 64:ff9b::7f00:1, a NAT64 address of 127.0.0.1, a loopback address'],
    ['64:ff9b:1::a9fe:a9fe', 'hooks.example.com resolves to 64:ff9b:1::a9fe:a9fe, a local-use NAT64 address of 0.0.0.0, a unspecified address'],
    ['64:ff9b:1:a9fe:a9:fe00::', 'hooks.example.com resolves to 64:ff9b:1:a9fe:a9:fe00::, a local-use NAT64 address of 169.254.169.254, a linkLocal address'],
    ['64:ff9b:1:a:0:100::', 'hooks.example.com resolves to 64:ff9b:1:a:0:100::, a local-use NAT64 address of 0.10.0.1, a unspecified address'],
    // 6to4, the embedded IPv4 address checked
    ['2002:a9fe:a9fe::1', 'hooks.example.com resolves to 2002:a9fe:a9fe::1, a 6to4 address of 169.254.169.254, a linkLocal address'],
    ['2002:c0a8:101::1', 'hooks.example.com resolves to 2002:c0a8:101::1, a 6to4 address of 192.168.1.1, a private address'],
    ['2002:7f00:1::1', 'hooks.example.com resolves to 2002:7f00:1::1, a 6to4 address of 127.0.0.1, a loopback address'],
    // Teredo, whatever it carries
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'hooks.example.com resolves to 2001:0:4136:e378:8000:63bf:3fff:fdd2, a teredo address'],
    // the special ranges of IPv6 itself
    ['::1', 'hooks.example.com resolves to ::1, a loopback address'],
    ['::', 'hooks.example.com resolves to ::, a unspecified address'],
    ['fe80::1', 'hooks.example.com resolves to fe80::1, a linkLocal address'],
    ['fd00:ec2::254', 'hooks.example.com resolves to fd00:ec2::254, a uniqueLocal address'],
    ['fec0::1', 'hooks.example.com resolves to fec0::1, a deprecatedSiteLocal address'],
    ['ff02::1', 'hooks.example.com resolves to ff02::1, a multicast address'],
    ['100::1', 'hooks.example.com resolves to 100::1, a discard address'],
    ['2001:db8::1', 'hooks.example.com resolves to 2001:db8::1, a reserved address'],
    // outside 2000::/3, in no named range
    ['4000::1', 'hooks.example.com resolves to 4000::1, an address outside global unicast (2000::/3)'],
    ['e000::1', 'hooks.example.com resolves to e000::1, an address outside global unicast (2000::/3)'],
    ['1::a9fe:a9fe', 'hooks.example.com resolves to 1::a9fe:a9fe, an address outside global unicast (2000::/3)'],
    ['::1:0:0:a9fe:a9fe', 'hooks.example.com resolves to ::1:0:0:a9fe:a9fe, an address outside global unicast (2000::/3)'],
  ])('refuses %s', (address, refusal) => {
    expect(refusalOf(address, 'hooks.example.com', aws)).toBe(refusal);
    expect(isPublicAddress(address)).toBe(false);
  });

  it('allows IPv6 loopback only in the local runtime, and no embedded loopback even there', () => {
    expect(refusalOf('::1', 'localhost', local)).toBeUndefined();
    expect(refusalOf('::ffff:127.0.0.1', 'localhost', local)).toBeUndefined();
    expect(refusalOf('::7f00:1', 'x', local)).toMatch(/IPv4-compatible address of 127\.0\.0\.1/);
    expect(refusalOf('64:ff9b::7f00:1', 'x', local)).toMatch(/NAT64 address of 127\.0\.0\.1/);
    expect(refusalOf('2002:7f00:1::1', 'x', local)).toMatch(/6to4 address of 127\.0\.0\.1/);
  });

  it('lets HARK_WEBHOOK_ALLOWED_HOSTS allow an IPv6 range on purpose', () => {
    expect(refusalOf('64:ff9b::a01:203', 'nat.internal', { allowLoopback: false, allowed: ['64:ff9b::/96'] })).toBeUndefined();
    expect(refusalOf('4000::1', 'odd.internal', { allowLoopback: false, allowed: ['odd.internal'] })).toBeUndefined();
  });

  it('refuses such an address written in a URL', () => {
    expect(urlProblem('https://[::a9fe:a9fe]/hook', aws)).toBe(
      'url must not point at a private, loopback or link-local address (::a9fe:a9fe resolves to ::a9fe:a9fe, an IPv4-compatible address of 169.254.169.254, a linkLocal address)',
    );
    expect(urlProblem('https://[64:ff9b::a9fe:a9fe]/hook', aws)).toMatch(/NAT64 address of 169\.254\.169\.254/);
    expect(urlProblem('https://[2606:2800:220:1:248:1893:25c8:1946]/hook', aws)).toBeUndefined();
  });

  it('is not public without an address', () => {
    expect(isPublicAddress(undefined)).toBe(false);
    expect(isPublicAddress('not-an-address')).toBe(false);
  });
});
