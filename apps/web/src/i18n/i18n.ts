import i18next from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';
import type { CataloguePart } from './catalogue-parts';
import { currentLanguage, subscribeLanguage, type Language } from './language';
import type vi from './locales/vi.json';
import viCore from './locales/vi.json?part=core';

/** Keys are typed through the whole catalogue, whichever part of it ships a message. */
type Catalogue = typeof vi;

/** Every dotted path to a string in the Vietnamese catalogue: a key that is not there fails the typecheck. */
type Leaves<Node, Prefix extends string = ''> = {
  [Key in keyof Node & string]: Node[Key] extends string
    ? `${Prefix}${Key}`
    : Leaves<Node[Key], `${Prefix}${Key}.`>;
}[keyof Node & string];

export type MessageKey = Leaves<Catalogue>;

/** Values for a message's `{{placeholders}}`. */
export type MessageValues = Record<string, string | number>;

export type Translate = (key: MessageKey, values?: MessageValues) => string;

const i18n = i18next.createInstance();
void i18n.init({
  lng: 'vi',
  fallbackLng: 'vi',
  // A copy: i18next merges the parts added later into the object it is given.
  resources: { vi: { translation: structuredClone(viCore) } },
  // React escapes what it renders; i18next must not escape it a second time.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

const PART_LOADERS: Record<CataloguePart, () => Promise<{ default: Record<string, unknown> }>> = {
  admin: () => import('./locales/vi.json?part=admin'),
  profile: () => import('./locales/vi.json?part=profile'),
  cultivation: () => import('./locales/vi.json?part=cultivation'),
  chat: () => import('./locales/vi.json?part=chat'),
};
const partLoads = new Map<CataloguePart, Promise<void>>();

/**
 * Adds a part of the Vietnamese catalogue (catalogue-parts.ts) that ships with the screens using it; those screens
 * await it before they render, so none of their messages is ever missing.
 */
export function loadCataloguePart(part: CataloguePart): Promise<void> {
  let load = partLoads.get(part);
  if (!load) {
    load = PART_LOADERS[part]().then(
      (module) => {
        i18n.addResourceBundle('vi', 'translation', module.default, true, true);
      },
      (error: unknown) => {
        // A failed chunk (offline, new deploy) must not stop the next visit to the screen from trying again.
        partLoads.delete(part);
        throw error;
      },
    );
    partLoads.set(part, load);
  }
  return load;
}

/** A screen's loader that also brings the parts of the Vietnamese catalogue the screen shows. */
export function withCatalogueParts<Screen>(
  load: () => Promise<Screen>,
  ...parts: CataloguePart[]
): () => Promise<Screen> {
  return async () => {
    const [screen] = await Promise.all([load(), ...parts.map(loadCataloguePart)]);
    return screen;
  };
}

// Vietnamese ships with the first screen; English is fetched only by those who choose it.
let englishLoad: Promise<void> | null = null;
let englishReady = false;
const readyListeners = new Set<() => void>();

function loadEnglish(): Promise<void> {
  englishLoad ??= import('./locales/en.json').then(
    (module) => {
      i18n.addResourceBundle('en', 'translation', module.default, true, true);
      englishReady = true;
      for (const listener of readyListeners) listener();
    },
    (error: unknown) => {
      // A failed chunk (offline, new deploy) must not stop a later attempt; Vietnamese stays on screen meanwhile.
      englishLoad = null;
      throw error;
    },
  );
  return englishLoad;
}

/** The language texts are shown in right now: the chosen one once its catalogue is here, Vietnamese until then. */
function shownLanguage(): Language {
  const chosen = currentLanguage();
  if (chosen === 'en' && !englishReady) {
    void loadEnglish().catch(() => undefined);
    return 'vi';
  }
  return chosen;
}

function subscribeShown(onChange: () => void): () => void {
  readyListeners.add(onChange);
  const stopLanguage = subscribeLanguage(onChange);
  return () => {
    readyListeners.delete(onChange);
    stopLanguage();
  };
}

/** The language on screen right now, for formatting outside React (dates in a toast or a failure note). */
export function shownLanguageNow(): Language {
  return shownLanguage();
}

/** Resolves once the chosen language's catalogue is loaded (at once for Vietnamese). */
export function whenLanguageReady(): Promise<void> {
  return currentLanguage() === 'en' ? loadEnglish() : Promise.resolve();
}

function translatorFor(language: Language): Translate {
  const fixed = i18n.getFixedT(language);
  return (key, values) => fixed(key, values ?? {});
}

/** The translator for one language (Vietnamese until English is loaded), for formatters given a language. */
export function translatorIn(language: Language): Translate {
  return translatorFor(language === 'en' && !englishReady ? 'vi' : language);
}

/**
 * Translates outside React (validation messages, toasts fired from handlers) in the language shown right now.
 * Components use `useT()` instead, so they re-render when the language changes.
 */
export const t: Translate = (key, values) => translatorFor(shownLanguage())(key, values);

/** The translator for the language on screen; components re-render with the new one when the language changes. */
export function useT(): Translate {
  const language = useSyncExternalStore(subscribeShown, shownLanguage, () => 'vi' as const);
  return useMemo(() => translatorFor(language), [language]);
}

/** The language texts are shown in, for locale-aware formatting (dates) in components. */
export function useShownLanguage(): Language {
  return useSyncExternalStore(subscribeShown, shownLanguage, () => 'vi' as const);
}
