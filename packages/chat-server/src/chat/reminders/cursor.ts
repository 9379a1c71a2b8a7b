import { chatError } from '../../errors.ts';

/** Opaque `next`/`prev` cursors over offsets: the reminder paginator only ever echoes them back. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

export function decodeCursor(value: unknown, name: string): number {
  if (value === undefined || value === null || value === '') return 0;
  try {
    const parsed = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8')) as {
      o?: unknown;
    };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0)
      return parsed.o;
  } catch {
    // reported below
  }
  throw chatError.input(`${name} is not a valid cursor`);
}
