import { randomBytes } from 'node:crypto';

/**
 * Timestamps for rows. ISO-8601 with microseconds, strictly increasing within this process, so messages sent in
 * the same millisecond keep their send order and `created_at` works as a pagination cursor.
 */
export interface Clock {
  now(): string;
  nowMs(): number;
}

export function createClock(): Clock {
  let lastMicros = 0;
  return {
    nowMs: () => Date.now(),
    now() {
      const micros = Math.max(Date.now() * 1000, lastMicros + 1);
      lastMicros = micros;
      return isoFromMicros(micros);
    },
  };
}

// A send stamps several timestamps within the same millisecond: formatting the date once per millisecond is enough.
let prefixMs = Number.NaN;
let prefix = '';

export function isoFromMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  if (ms !== prefixMs) {
    prefix = new Date(ms).toISOString().slice(0, 23); // 2024-01-01T00:00:00.123
    prefixMs = ms;
  }
  return `${prefix}${String(micros % 1000).padStart(3, '0')}Z`;
}

/** The last instant with a four-digit year: later (or negative-year) ISO strings would not sort as text. */
export const MAX_ISO_MS = Date.parse('9999-12-31T23:59:59.999Z');
const MIN_ISO_MS = Date.parse('0000-01-01T00:00:00.000Z');

/**
 * Normalises any client-supplied date (Date string, ISO with any precision) to our 6-digit ISO form; null when it is
 * not a date or falls outside years 0000–9999.
 */
export function normalizeIso(value: string | number | Date): string | null {
  const date = value instanceof Date ? value : new Date(value);
  const ms = date.getTime();
  if (Number.isNaN(ms) || ms < MIN_ISO_MS || ms > MAX_ISO_MS) return null;
  let micros = ms * 1000;
  if (typeof value === 'string') {
    const fraction = /\.(\d+)/.exec(value)?.[1];
    if (fraction && fraction.length > 3) micros += Number(fraction.slice(3, 6).padEnd(3, '0'));
  }
  return isoFromMicros(micros);
}

/** The instant one microsecond before `iso` (for "everything from this message on is unread"). */
export function isoJustBefore(iso: string): string {
  const ms = Date.parse(iso);
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const micros = ms * 1000 + Number(fraction.slice(3, 6).padEnd(3, '0'));
  return isoFromMicros(micros - 1);
}

let lastIdMs = 0;
let idCounter = 0;

/** Time-ordered id (UUIDv7 layout): ids generated later sort later, which keeps B-tree inserts append-only. */
export function timeOrderedId(): string {
  const ms = Date.now();
  if (ms === lastIdMs) idCounter += 1;
  else {
    lastIdMs = ms;
    idCounter = randomBytes(2).readUInt16BE(0) & 0x3ff;
  }
  const hex = ms.toString(16).padStart(12, '0');
  const counter = (0x7000 | (idCounter & 0xfff)).toString(16);
  const rand = randomBytes(8);
  rand[0] = (rand[0]! & 0x3f) | 0x80;
  const tail = rand.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${counter}-${tail.slice(0, 4)}-${tail.slice(4, 16)}`;
}
