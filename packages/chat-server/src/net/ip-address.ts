/**
 * Reading an IP address written in any form to its bytes: IPv4 in any inet_aton form (`0x7f.1`, `2130706433`,
 * `017700000001`, `127.1`), IPv6 with `::`, a dotted tail, a zone id, brackets or trailing dots. Shared by the
 * link-preview guard, which must not be fooled by a spelling, and the rate limiter, which counts IPv6 per /64.
 */

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

/** One inet_aton part: decimal, octal (leading 0) or hex (0x). */
function parseV4Part(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(?:0|[1-9]\d*)$/.test(part)) return Number(part);
  return undefined;
}

/** IPv4 as inet_aton and WHATWG URLs read it: 1 to 4 parts, the last filling the remaining bytes. */
function parseV4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const values = parts.map(parseV4Part);
  if (values.some((v) => v === undefined || !Number.isSafeInteger(v))) return undefined;
  const numbers = values as number[];
  const last = numbers.pop()!;
  if (numbers.some((v) => v > 255) || last >= 2 ** (8 * (4 - numbers.length))) return undefined;
  const bytes = [...numbers];
  for (let shift = 8 * (3 - numbers.length); shift >= 0; shift -= 8)
    bytes.push(Math.floor(last / 2 ** shift) % 256);
  return bytes;
}

function parseV6(text: string): number[] | undefined {
  let body = text;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const parts = dotted[2]!.split('.').map(Number);
    if (parts.some((p) => p > 255) || dotted[2]!.split('.').some((p) => /^0\d/.test(p)))
      return undefined;
    tail.push(...parts);
    body = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  const given = head.length + rest.length + tail.length / 2;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const zeros = Array<string>(8 - given).fill('0');
  const bytes: number[] = [];
  for (const group of [...head, ...zeros, ...rest]) {
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return [...bytes, ...tail];
}

/** The address a host string spells, in any form; undefined for a name (or garbage). */
export function parseIpAddress(input: string): IpAddress | undefined {
  const host = input
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '')
    .replace(/\.+$/, '');
  if (host.includes(':')) {
    const bytes = parseV6(host);
    return bytes ? { family: 6, bytes } : undefined;
  }
  const bytes = parseV4(host);
  return bytes ? { family: 4, bytes } : undefined;
}
