import { nonPublicRange, parseAddress } from './address-range.js';

describe('nonPublicRange', () => {
  it.each([
    ['8.8.8.8', undefined],
    ['1.1.1.1', undefined],
    ['2606:4700:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined],
    ['10.0.0.1', 'a private address'],
    ['172.16.5.4', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.255', 'a carrier-grade NAT address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'a broadcast address'],
    ['240.0.0.1', 'a reserved address'],
    ['192.0.2.1', 'a reserved address'],
    ['2001:db8::1', 'a reserved address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    // IPv4-compatible: dotted form is read as the IPv4 it may tunnel to, hex form is unallocated v6.
    ['::10.0.0.1', 'a private address'],
    ['::a00:1', 'a reserved address'],
    ['64:ff9b::a00:1', 'a reserved address'],
    ['2002:a00:1::1', 'a reserved address'],
    ['2001::1', 'a reserved address'],
  ])('%s -> %p', (text, expected) => {
    const address = parseAddress(text);
    expect(address).toBeDefined();
    expect(nonPublicRange(address!)).toBe(expected);
  });
});

describe('parseAddress', () => {
  it.each(['example.com', '', '1.2.3.4.5', 'fe80::zz'])('rejects %p', (text) => {
    expect(parseAddress(text)).toBeUndefined();
  });

  it('unwraps IPv4-mapped IPv6', () => {
    expect(parseAddress('::ffff:7f00:1')?.toString()).toBe('127.0.0.1');
  });
});
