import { parseIpAddress } from '../../../net/ip-address.ts';

/**
 * Which addresses a link preview may connect to. Every spelling of an address is first reduced to its bytes (IPv4 in
 * any inet_aton form — `0x7f.1`, `2130706433`, `017700000001`, `127.1` —, IPv6 with `::`, a dotted tail, a zone id,
 * brackets or trailing dots), IPv6 forms that carry an IPv4 address are judged by that address, and only then is the
 * range decided. Unparseable input is refused.
 */

type Range = readonly [prefix: readonly number[], bits: number];

/** IPv4 ranges that are not the public internet (IANA special-purpose registry). */
const BLOCKED_V4: readonly Range[] = [
  [[0, 0, 0, 0], 8], // "this network", 0.0.0.0
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // CGNAT (Alibaba metadata 100.100.100.200)
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (cloud metadata 169.254.169.254)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 31, 196, 0], 24], // AS112
  [[192, 52, 193, 0], 24], // AMT
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[192, 175, 48, 0], 24], // AS112 direct delegation
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

/** Global unicast, 2000::/3: every other IPv6 address (loopback, ULA, link-local, multicast, …) is refused. */
const GLOBAL_UNICAST_V6: Range = [[0x20], 3];

/** Special ranges inside 2000::/3. */
const BLOCKED_V6: readonly Range[] = [
  // IETF protocol assignments: Teredo 2001::/32 (an obfuscated IPv4 inside), benchmarking 2001:2::/48, ORCHID.
  [[0x20, 0x01, 0x00, 0x00], 23],
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff], 20], // documentation (RFC 9637)
];

function inRange(bytes: readonly number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 address an IPv6 address stands for: mapped ::ffff:0:0/96, compatible ::/96, translated ::ffff:0:0:0/96,
 * NAT64 64:ff9b::/96 and 6to4 2002::/16.
 */
function embeddedIPv4(bytes: readonly number[]): number[] | undefined {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const last4 = bytes.slice(12, 16);
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last4;
  if (zero(0, 12)) return last4;
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return last4;
  if (inRange(bytes, [[0, 0x64, 0xff, 0x9b], 32]) && zero(4, 12)) return last4;
  if (inRange(bytes, [[0x20, 0x02], 16])) return bytes.slice(2, 6);
  return undefined;
}

function isBlockedV4(bytes: readonly number[]): boolean {
  return BLOCKED_V4.some((range) => inRange(bytes, range));
}

/** True unless `address` is a public address a preview may connect to. */
export function isBlockedAddress(address: string): boolean {
  const ip = parseIpAddress(address);
  if (!ip) return true;
  if (ip.family === 4) return isBlockedV4(ip.bytes);
  const inner = embeddedIPv4(ip.bytes);
  if (inner) return isBlockedV4(inner);
  if (!inRange(ip.bytes, GLOBAL_UNICAST_V6)) return true;
  return BLOCKED_V6.some((range) => inRange(ip.bytes, range));
}
