import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** One source module's share of a chunk, as the bundler rendered it (tree-shaken, before minification). */
export interface ReportedModule {
  /** `npm:<package>/<file>` for dependencies, a path under the repository otherwise. */
  id: string;
  renderedBytes: number;
  /** The module's rendered code compressed alone: a ranking aid, it does not add up to the chunk's gzip size. */
  gzipBytes: number;
}

export interface ReportedChunk {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  /** Chunks this one imports statically (they load with it) and dynamically (on demand). */
  imports: string[];
  dynamicImports: string[];
  /** CSS files Vite loads together with this chunk. */
  css: string[];
  modules: ReportedModule[];
}

export interface BundleReport {
  chunks: ReportedChunk[];
}

/** `/x/node_modules/@scope/pkg/dist/a.js` → `npm:@scope/pkg/dist/a.js`; app files keep their path after `apps/web/`. */
function moduleLabel(id: string): string {
  const clean = (id.replace(/^\0/, '').split('?', 1)[0] ?? id).replace(/\\/g, '/');
  const dependency = clean.lastIndexOf('node_modules/');
  if (dependency !== -1) return `npm:${clean.slice(dependency + 'node_modules/'.length)}`;
  const web = clean.lastIndexOf('apps/web/');
  if (web !== -1) return clean.slice(web + 'apps/web/'.length);
  const packages = clean.lastIndexOf('packages/');
  return packages !== -1 ? clean.slice(packages) : clean;
}

/**
 * Writes the bundler's own chunk metadata (which modules landed in which chunk, and how chunks import each other) to
 * `file`, for `npm run bench:web`'s bundle report. It goes outside dist/ so the product server never serves it.
 */
export function bundleReport(file: string): Plugin {
  return {
    name: 'daohuu-bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: ReportedChunk[] = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const modules = Object.entries(output.modules).map(([id, module]): ReportedModule => ({
          id: moduleLabel(id),
          renderedBytes: module.renderedLength,
          gzipBytes: module.code ? gzipSync(module.code).length : 0,
        }));
        chunks.push({
          fileName: output.fileName,
          isEntry: output.isEntry,
          isDynamicEntry: output.isDynamicEntry,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          css: [...(output.viteMetadata?.importedCss ?? [])],
          modules,
        });
      }
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify({ chunks } satisfies BundleReport, null, 1)}\n`);
    },
  };
}
