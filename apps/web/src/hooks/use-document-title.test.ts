import { describe, expect, it } from 'vitest';
import { documentTitle } from './use-document-title';

describe('document title', () => {
  it('names the screen and the app', () => {
    expect(documentTitle('Trò chuyện')).toBe('Trò chuyện · Đạo Hữu');
    expect(documentTitle(null)).toBe('Đạo Hữu');
  });

  it('leads with the unread count when there is one, and drops it at zero', () => {
    expect(documentTitle(null, '3')).toBe('(3) Đạo Hữu');
    expect(documentTitle('Trò chuyện', '99+')).toBe('(99+) Trò chuyện · Đạo Hữu');
    expect(documentTitle('Trò chuyện', null)).toBe('Trò chuyện · Đạo Hữu');
  });
});
