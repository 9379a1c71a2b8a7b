import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The Vietnamese catalogue is one file (src/i18n/locales/vi.json), but the first screen needs only part of it: the
 * admin, profile and chat screens' messages ship with those screens. `vi.json?part=<name>` is the file cut down to
 * the part's sections (dotted paths: `admin`, `chat.list`), and `vi.json?part=core` to everything no part takes
 * (src/i18n/catalogue-parts.ts names them). Each part is a module of its own, so the bundler puts it in the chunk of the screens that import it.
 */
const PREFIX = '\0daohuu-catalogue-part:';
// Not ending in .json: Vite's JSON plugin would take the module for the file's own text.
const SUFFIX = '.mjs';

type Tree = { [section: string]: string | Tree };

/** The sections at `paths`, in their place in the tree. */
function only(tree: Tree, paths: readonly string[]): Tree {
  const out: Tree = {};
  for (const path of paths) {
    const keys = path.split('.');
    let from: string | Tree | undefined = tree;
    let into = out;
    keys.forEach((key, depth) => {
      from = typeof from === 'object' ? from[key] : undefined;
      if (from === undefined) throw new Error(`the catalogue has no section "${path}"`);
      if (depth === keys.length - 1) into[key] = from;
      else into = (into[key] ??= {}) as Tree;
    });
  }
  return out;
}

/** The tree without the sections at `paths`. */
function without(tree: Tree, paths: ReadonlySet<string>, prefix = ''): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}${key}`;
    if (paths.has(path)) continue;
    out[key] = typeof value === 'string' ? value : without(value, paths, `${path}.`);
  }
  return out;
}

export function catalogueParts(parts: Record<string, readonly string[]>): Plugin {
  const taken = new Set(Object.values(parts).flat());
  return {
    name: 'daohuu-catalogue-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      const [file, query] = source.split('?', 2);
      if (!file?.endsWith('.json') || !query) return null;
      const part = new URLSearchParams(query).get('part');
      if (part === null) return null;
      if (part !== 'core' && !(part in parts))
        throw new Error(`unknown catalogue part "${part}" in ${source}`);
      const resolved = await this.resolve(file, importer, { skipSelf: true });
      if (!resolved) return null;
      // A virtual id: no other plugin (Vite's JSON plugin included) touches the module this one writes.
      return `${PREFIX}${part}:${resolved.id}${SUFFIX}`;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const rest = id.slice(PREFIX.length);
      const separator = rest.indexOf(':');
      const part = rest.slice(0, separator);
      const file = rest.slice(separator + 1, -SUFFIX.length);
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Tree;
      const messages =
        part === 'core' ? without(catalogue, taken) : only(catalogue, parts[part] ?? []);
      return `export default ${JSON.stringify(messages)};`;
    },
  };
}
