import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import vi from './locales/vi.json';
import viAdmin from './locales/vi.json?part=admin';
import viChat from './locales/vi.json?part=chat';
import viCore from './locales/vi.json?part=core';
import viCultivation from './locales/vi.json?part=cultivation';
import viProfile from './locales/vi.json?part=profile';
import { CATALOGUE_PARTS } from './catalogue-parts';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string') out.set(path, value);
    else for (const [leaf, text] of flatten(value, `${path}.`)) out.set(leaf, text);
  }
  return out;
}

function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

const viMessages = flatten(vi);
const enMessages = flatten(en);

describe('the message catalogues', () => {
  it('have exactly the same keys in Vietnamese and English', () => {
    const missingInEnglish = [...viMessages.keys()].filter((key) => !enMessages.has(key));
    const missingInVietnamese = [...enMessages.keys()].filter((key) => !viMessages.has(key));
    expect({ missingInEnglish, missingInVietnamese }).toEqual({
      missingInEnglish: [],
      missingInVietnamese: [],
    });
  });

  it('give every message the same placeholders in both languages', () => {
    const mismatched = [...viMessages]
      .filter(([key, text]) => {
        const other = enMessages.get(key);
        return other !== undefined && placeholders(text).join() !== placeholders(other).join();
      })
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
  });

  it('leave no message empty in either language', () => {
    const empty = [...viMessages, ...enMessages]
      .filter(([, text]) => text.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('notice a key missing from English and a placeholder renamed (the checks above can fail)', () => {
    const broken = new Map(enMessages);
    broken.delete('common.signIn');
    expect([...viMessages.keys()].filter((key) => !broken.has(key))).toEqual(['common.signIn']);
    expect(placeholders('{{name}} left').join()).not.toBe(placeholders('{{user}} left').join());
  });

  it('ship the Vietnamese catalogue in parts that together are the whole of it, each message in exactly one', () => {
    const parts = {
      core: viCore,
      admin: viAdmin,
      profile: viProfile,
      cultivation: viCultivation,
      chat: viChat,
    };
    const leaves = Object.values(parts).flatMap((part) => [...flatten(part as Tree)]);
    expect(new Map(leaves)).toEqual(viMessages);
    expect(leaves).toHaveLength(viMessages.size);
    for (const [name, sections] of Object.entries(CATALOGUE_PARTS)) {
      const keys = [...flatten(parts[name as keyof typeof parts] as Tree).keys()];
      expect(keys.every((key) => sections.some((section) => key.startsWith(`${section}.`)))).toBe(
        true,
      );
    }
    expect(viCore).toHaveProperty('common.signIn', vi.common.signIn);
    expect(viCore).toHaveProperty('chat.notifications');
    expect(viCore).not.toHaveProperty('chat.list');
    expect(viChat).toHaveProperty('chat.list');
    expect(viCore).not.toHaveProperty('admin');
  });
});
