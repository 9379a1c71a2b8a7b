import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../../net/ip-address.ts';
import { isBlockedAddress } from './address-guard.ts';
import { createGuardedLookup, type Resolver } from './guarded-fetch.ts';

describe('isBlockedAddress', () => {
  it.each([
    // IPv4 ranges
    ['loopback', '127.0.0.1'],
    ['loopback, anywhere in 127/8', '127.255.0.9'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.20.0.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['CGNAT (Alibaba metadata)', '100.100.100.200'],
    ['CGNAT', '100.64.0.1'],
    ['unspecified', '0.0.0.0'],
    ['"this network"', '0.1.2.3'],
    ['IETF protocol assignments', '192.0.0.8'],
    ['documentation', '192.0.2.1'],
    ['documentation', '198.51.100.7'],
    ['documentation', '203.0.113.9'],
    ['benchmarking', '198.18.0.1'],
    ['benchmarking', '198.19.255.255'],
    ['AS112', '192.31.196.1'],
    ['AMT', '192.52.193.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['AS112 direct delegation', '192.175.48.1'],
    ['multicast', '224.0.0.1'],
    ['multicast', '239.255.255.250'],
    ['reserved', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    // IPv4 in other spellings
    ['hex short form', '0x7f.1'],
    ['hex dotted', '0x7f.0x0.0x0.0x1'],
    ['one decimal number', '2130706433'],
    ['one octal number', '017700000001'],
    ['octal dotted', '0177.0.0.01'],
    ['two parts', '127.1'],
    ['three parts', '127.0.1'],
    ['a trailing dot', '127.0.0.1.'],
    ['several trailing dots', '127.0.0.1..'],
    ['one hex number', '0xa9fea9fe'],
    // IPv6 ranges
    ['unspecified', '::'],
    ['loopback', '::1'],
    ['loopback, long form', '0:0:0:0:0:0:0:1'],
    ['loopback in brackets', '[::1]'],
    ['unique-local (AWS metadata)', 'fd00:ec2::254'],
    ['unique-local', 'fc00::1'],
    ['link-local', 'fe80::1'],
    ['link-local with a zone id', 'fe80::1%eth0'],
    ['link-local with a zone id, in brackets', '[fe80::1%25eth0]'],
    ['site-local', 'fec0::1'],
    ['multicast', 'ff02::1'],
    ['discard-only', '100::1'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['benchmarking', '2001:2::1'],
    ['documentation', '2001:db8::1'],
    ['documentation (RFC 9637)', '3fff::1'],
    ['outside global unicast', '4000::1'],
    // IPv6 forms that carry a private IPv4
    ['IPv4-mapped, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped, hex', '::ffff:7f00:1'],
    ['IPv4-mapped, long form', '0:0:0:0:0:ffff:7f00:1'],
    ['IPv4-mapped, private', '::ffff:10.0.0.1'],
    ['IPv4-compatible, hex', '::7f00:1'],
    ['IPv4-compatible, dotted', '::127.0.0.1'],
    ['IPv4-compatible, metadata', '::a9fe:a9fe'],
    ['IPv4-translated, hex', '::ffff:0:7f00:1'],
    ['IPv4-translated, dotted', '::ffff:0:127.0.0.1'],
    ['NAT64', '64:ff9b::a9fe:a9fe'],
    ['NAT64, dotted', '64:ff9b::127.0.0.1'],
    ['6to4 around loopback', '2002:7f00:1::'],
    ['6to4 around private', '2002:c0a8:101::1'],
    // Not addresses at all
    ['a name', 'not-an-ip'],
    ['an empty string', ''],
    ['five IPv4 parts', '1.2.3.4.5'],
    ['an IPv4 part over 255', '1.2.3.256'],
    ['two ::', '1::2::3'],
    ['a bad IPv6 group', '::ffff:12345'],
  ])('refuses %s: %s', (_what, address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '1.1.1.1',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '[2606:4700:4700::1111]',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it.each([
    ['0x7f.1', [127, 0, 0, 1]],
    ['2130706433', [127, 0, 0, 1]],
    ['017700000001', [127, 0, 0, 1]],
    ['127.1', [127, 0, 0, 1]],
    ['10.1.258', [10, 1, 1, 2]],
  ])('reads the IPv4 spelling %s as its bytes', (text, bytes) => {
    expect(parseIpAddress(text)).toEqual({ family: 4, bytes });
  });

  it('reads IPv6 with :: and a dotted tail as its 16 bytes', () => {
    expect(parseIpAddress('::ffff:0:127.0.0.1')).toEqual({
      family: 6,
      bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 127, 0, 0, 1],
    });
    expect(parseIpAddress('example.com')).toBeUndefined();
  });
});

describe('createGuardedLookup', () => {
  /** Runs the lookup against a fake resolver answering `answer`, as the socket would call it. */
  function lookUp(answer: LookupAddress[], all: boolean) {
    const resolver: Resolver = (_name, _options, callback) => callback(null, answer);
    return new Promise<{ error: Error | null; result: unknown }>((resolve) => {
      createGuardedLookup(resolver)('trang.example', { all }, (error, address, family) =>
        resolve({ error, result: all ? address : { address, family } }),
      );
    });
  }

  it.each([
    ['one private address', [{ address: '10.0.0.1', family: 4 }]],
    [
      'a public and a private address',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    ],
    ['an IPv4-mapped loopback', [{ address: '::ffff:7f00:1', family: 6 }]],
    ['no address at all', []],
  ])('refuses a name resolving to %s', async (_what, answer) => {
    for (const all of [true, false]) {
      const { error } = await lookUp(answer, all);
      expect(error?.message).toMatch(/not allowed/);
    }
  });

  it('hands the socket exactly the addresses it checked', async () => {
    const answer = [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ];

    expect(await lookUp(answer, true)).toEqual({ error: null, result: answer });
    expect(await lookUp(answer, false)).toEqual({
      error: null,
      result: { address: '93.184.216.34', family: 4 },
    });
  });

  it('refuses localhost names without resolving them', async () => {
    let asked = false;
    const resolver: Resolver = (_name, _options, callback) => {
      asked = true;
      callback(null, [{ address: '93.184.216.34', family: 4 }]);
    };
    const error = await new Promise<Error | null>((resolve) =>
      createGuardedLookup(resolver)('a.localhost.', { all: true }, (e) => resolve(e)),
    );
    expect(error?.message).toMatch(/not allowed/);
    expect(asked).toBe(false);
  });
});
