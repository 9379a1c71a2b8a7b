/**
 * A controllable window.matchMedia for jsdom, which has none. It understands the queries this app asks
 * (min-width / max-width in px, prefers-color-scheme) and notifies listeners when the fake viewport changes,
 * like a browser does on resize.
 *
 * Like Chromium, a list fires `change` only when its answer differs from its last evaluation, and reading `matches`
 * is an evaluation: `setPrefersDarkLater` and `evaluateMediaQueries` let a test read in between, as a render can
 * between a system change and the browser's next frame.
 */
interface FakeList {
  list: MediaQueryList;
  listeners: Set<(event: MediaQueryListEvent) => void>;
  /** The last evaluation's answer. */
  matches: boolean;
}

const DEFAULT_WIDTH = 1280;
let width = DEFAULT_WIDTH;
let prefersDark = false;
const lists: FakeList[] = [];

function evaluate(query: string): boolean {
  return query
    .split(/\s+and\s+/)
    .map((part) => part.trim())
    .every((part) => {
      const min = /\(min-width:\s*(\d+(?:\.\d+)?)px\)/.exec(part);
      if (min) return width >= Number(min[1]);
      const max = /\(max-width:\s*(\d+(?:\.\d+)?)px\)/.exec(part);
      if (max) return width <= Number(max[1]);
      const scheme = /\(prefers-color-scheme:\s*(dark|light)\)/.exec(part);
      if (scheme) return (scheme[1] === 'dark') === prefersDark;
      throw new Error(`The matchMedia fake does not understand "${part}".`);
    });
}

function notifyChanges(): void {
  for (const entry of lists) {
    const matches = evaluate(entry.list.media);
    if (matches === entry.matches) continue;
    entry.matches = matches;
    const event = { matches, media: entry.list.media } as MediaQueryListEvent;
    for (const listener of [...entry.listeners]) listener(event);
  }
}

function matchMedia(query: string): MediaQueryList {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const entry: FakeList = { listeners, matches: evaluate(query), list: undefined as never };
  entry.list = {
    media: query,
    get matches() {
      entry.matches = evaluate(query);
      return entry.matches;
    },
    onchange: null,
    addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
      listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
      listeners.delete(listener),
    addListener: (listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
    removeListener: (listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
    dispatchEvent: () => true,
  } as unknown as MediaQueryList;
  lists.push(entry);
  return entry.list;
}

export function installMatchMedia(): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: matchMedia,
  });
}

/** Resizes the fake viewport; listeners of queries whose answer changed are called synchronously. */
export function setViewportWidth(next: number): void {
  width = next;
  notifyChanges();
}

export function setPrefersDark(next: boolean): void {
  prefersDark = next;
  notifyChanges();
}

/** Changes the system theme without evaluating the lists yet; `evaluateMediaQueries` is the browser's next frame. */
export function setPrefersDarkLater(next: boolean): void {
  prefersDark = next;
}

export function evaluateMediaQueries(): void {
  notifyChanges();
}

export function resetMatchMedia(): void {
  width = DEFAULT_WIDTH;
  prefersDark = false;
  notifyChanges();
}
