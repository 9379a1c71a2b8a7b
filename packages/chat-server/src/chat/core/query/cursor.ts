import { chatError } from '../../../errors.ts';
import { cursorOffset } from './bounds.ts';

/** Opaque `next`/`prev` cursors for offset pages (the client only echoes them back). */
export function encodeOffsetCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

export function decodeOffsetCursor(value: unknown, name: string): number {
  if (value === undefined || value === null || value === '') return 0;
  try {
    const parsed = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8')) as {
      offset?: unknown;
    };
    return cursorOffset(parsed.offset, name);
  } catch {
    throw chatError.input(`${name} is not a valid cursor`);
  }
}

/** A page size from the body: `fallback` when absent, otherwise an integer from 1 to `max`. */
export function pageLimit(value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max)
    throw chatError.input(`limit must be between 1 and ${max}`);
  return value;
}
