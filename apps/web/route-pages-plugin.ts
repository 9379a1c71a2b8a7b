import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** A page of its own for the screens under one path, with their code hinted in its head. */
export interface RoutePage {
  /** The file written next to index.html, e.g. `chat.html`; the product server answers the path's pages with it. */
  page: string;
  /**
   * Modules the screen imports on demand, as a part of their id (`src/features/chat/components/chat-screen.tsx`,
   * `daohuu-catalogue-part:chat:`): their chunks, the chunks those import, and their CSS are hinted.
   */
  modules: readonly string[];
  /** Same-origin API paths the screen asks for on its first render: fetched from the head, like `/api/me`. */
  fetches?: readonly string[];
  /**
   * Modules (as in `modules`) whose CSS the page applies from its head instead of only fetching it: styles the page's
   * first paint needs, such as the frame of the first messages the server writes into it.
   */
  stylesheets?: readonly string[];
}

function chunksOf(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
}

/** `start` and every chunk it imports statically, transitively. */
function closure(start: readonly OutputChunk[], byFile: Map<string, OutputChunk>): OutputChunk[] {
  const seen = new Map<string, OutputChunk>();
  const stack = [...start];
  while (stack.length > 0) {
    const chunk = stack.pop();
    if (!chunk || seen.has(chunk.fileName)) continue;
    seen.set(chunk.fileName, chunk);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) stack.push(next);
    }
  }
  return [...seen.values()];
}

interface PageFiles {
  scripts: string[];
  styles: string[];
  applied: string[];
  fetches: readonly string[];
}

function hints(files: PageFiles, base: string): string {
  return [
    ...files.applied.map((file) => `<link rel="stylesheet" crossorigin href="${base}${file}">`),
    // The same request the app makes (same-origin credentials): the browser hands it the preloaded answer.
    ...files.fetches.map(
      (path) => `<link rel="preload" href="${path}" as="fetch" crossorigin="anonymous">`,
    ),
    ...files.scripts.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
    // Only fetched early: the screen's import adds the stylesheet itself, so the shell's first paint never waits
    // for it.
    ...files.styles.map(
      (file) => `<link rel="preload" as="style" crossorigin href="${base}${file}">`,
    ),
  ]
    .map((line) => `    ${line}\n`)
    .join('');
}

/**
 * A screen loaded on demand is otherwise discovered only once the app's entry has downloaded and run: the browser
 * fetches the entry, then the screen's chunks, then the screen connects. For a page opened directly on such a screen
 * (a shared /chat link, a reload), this writes a copy of index.html whose head also hints the screen's chunks and
 * CSS, so they download together with the entry (docs/decisions/0008-web-code-splitting.md). Chunks the entry already
 * hints are left out.
 */
export function routePages(pages: readonly RoutePage[]): Plugin {
  let outDir = '';
  let base = '/';
  const found = new Map<string, PageFiles>();
  return {
    name: 'daohuu-route-pages',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = chunksOf(bundle);
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const entry = new Set(
        closure(
          chunks.filter((chunk) => chunk.isEntry),
          byFile,
        ).map((chunk) => chunk.fileName),
      );
      const cssOf = (list: readonly OutputChunk[]) => [
        ...new Set(list.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])])),
      ];
      for (const { page, modules, fetches = [], stylesheets = [] } of pages) {
        const chunkOf = (part: string) => {
          const chunk = chunks.find((candidate) => candidate.facadeModuleId?.includes(part));
          if (!chunk)
            throw new Error(`${page}: no chunk is built from a module matching "${part}"`);
          return chunk;
        };
        const screen = closure(modules.map(chunkOf), byFile).filter(
          (chunk) => !entry.has(chunk.fileName),
        );
        const applied = cssOf(
          closure(stylesheets.map(chunkOf), byFile).filter((chunk) => !entry.has(chunk.fileName)),
        );
        found.set(page, {
          scripts: screen.map((chunk) => chunk.fileName),
          styles: cssOf(screen).filter((file) => !applied.includes(file)),
          applied,
          fetches,
        });
      }
    },
    writeBundle() {
      const index = readFileSync(join(outDir, 'index.html'), 'utf8');
      const head = /\n[ \t]*<\/head>/.exec(index);
      if (!head) throw new Error('index.html has no </head> to add hints before');
      for (const [page, files] of found) {
        const at = head.index + 1;
        writeFileSync(
          join(outDir, page),
          `${index.slice(0, at)}${hints(files, base)}${index.slice(at)}`,
        );
      }
    },
  };
}
