import { enTranslations } from 'stream-chat-react';
import { describe, expect, it } from 'vitest';
import { createStreami18n, viSearchTexts } from '../i18n';

const english: Record<string, string> = enTranslations;

describe('the search screen texts', () => {
  it('never redefine a key of the SDK file, whose Vietnamese text lives in vi.json', () => {
    expect(Object.keys(viSearchTexts).filter((key) => key in english)).toEqual([]);
  });

  it('are Vietnamese in Vietnamese and their English key in English', async () => {
    const vi = (await createStreami18n('vi').getTranslators()).t;
    const en = (await createStreami18n('en').getTranslators()).t;
    for (const [key, text] of Object.entries(viSearchTexts)) {
      expect(text.trim()).not.toBe('');
      expect(text).not.toBe(key);
      expect(vi(key)).toBe(text);
      expect(en(key)).toBe(key);
    }
    expect(vi('In this channel')).toBe('Trong kênh này');
    expect(vi('No results found')).toBe('Không tìm thấy kết quả nào');
  });
});
