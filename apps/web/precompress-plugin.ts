import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map']);
/** Below this a compressed copy saves less than the response headers cost. */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Writes `file.br` and `file.gz` beside `file` when they are smaller; returns how many copies it wrote. */
export async function precompressFile(file: string): Promise<number> {
  const source = readFileSync(file);
  const [br, gz] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gzipAsync(source, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  let written = 0;
  for (const [suffix, copy] of [
    ['.br', br],
    ['.gz', gz],
  ] as const) {
    if (copy.length >= source.length) continue;
    writeFileSync(`${file}${suffix}`, copy);
    written += 1;
  }
  return written;
}

/** Every compressible file of `dir` (recursively) that is large enough, compressed beside itself. */
export async function precompressDirectory(dir: string): Promise<number> {
  const files = filesUnder(dir).filter(
    (file) => COMPRESSIBLE.has(extname(file)) && statSync(file).size >= MIN_BYTES,
  );
  const written = await Promise.all(files.map((file) => precompressFile(file)));
  return written.reduce((sum, count) => sum + count, 0);
}

/**
 * The product server sends the build as it is on disk (@fastify/static with `preCompressed`): a browser that accepts
 * brotli or gzip gets the copy written here, so the bytes on the wire are the compressed ones the budgets count,
 * without compressing on every request. Runs after every other plugin has written its files (chat.html included).
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'daohuu-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDirectory(outDir);
    },
  };
}
