import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../errors.ts';
import { normalizeMimeType, safeFileName } from './service.ts';

describe('safeFileName', () => {
  it('folds accents, full-width letters and separators into a plain name', () => {
    expect(safeFileName('Đan dược.png')).toBe('Dan-duoc.png');
    expect(safeFileName('evil.ｅｘｅ')).toBe('evil.exe');
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
  });

  it('drops leading and trailing dots, dashes and spaces, which some systems strip when saving', () => {
    expect(safeFileName('evil.exe.')).toBe('evil.exe');
    expect(safeFileName('evil.exe ')).toBe('evil.exe');
    expect(safeFileName('.htaccess')).toBe('htaccess');
    expect(safeFileName('...')).toBe('file');
  });

  it('keeps a name and its thumbnail within the 100 characters a path segment may have', () => {
    const long = safeFileName(`${'a'.repeat(300)}.tar.gz`);
    expect(`thumb-${long}`.length).toBeLessThanOrEqual(100);
    expect(long).toMatch(/^a+\.gz$/);
    // An "extension" too long to be one is not kept whole.
    expect(safeFileName(`x.${'b'.repeat(300)}`).length).toBeLessThanOrEqual(94);
  });
});

describe('normalizeMimeType', () => {
  it('compares and serves the type without parameters or case', () => {
    expect(normalizeMimeType('Text/HTML; charset=utf-8')).toBe('text/html');
    expect(normalizeMimeType(' image/png ')).toBe('image/png');
    expect(normalizeMimeType('')).toBe('application/octet-stream');
  });

  it('refuses a type that could not be sent back as a header', () => {
    for (const bad of ['text/pl\u00e0in', 'text/plain\r\nx: y', 'text', 'a/b/c'])
      expect(() => normalizeMimeType(bad), bad).toThrow(ChatError);
  });
});
