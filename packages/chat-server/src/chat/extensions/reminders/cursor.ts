import { chatError } from '../../../errors.ts';
import { cursorOffset } from '../../core/query/bounds.ts';

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
    return cursorOffset(parsed.o, name);
  } catch {
    throw chatError.input(`${name} is not a valid cursor`);
  }
}
