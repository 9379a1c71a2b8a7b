// Where the bytes go: the bundler's own chunk metadata (apps/web/bundle-report.ts writes it during the build), joined
// with what each page actually downloaded.
import { existsSync, readFileSync } from 'node:fs';
import type { Asset } from './assets.ts';

interface ReportedModule {
  id: string;
  renderedBytes: number;
  gzipBytes: number;
}

interface ReportedChunk {
  fileName: string;
  modules: ReportedModule[];
}

export interface BundleReport {
  chunks: ReportedChunk[];
}

/** Where `npm run bench:web` asks the build to write its report: outside dist/, so no server ever serves it. */
export const BUNDLE_REPORT_FILE = 'node_modules/.cache/daohuu-web/bundle-report.json';

/** Packages the first screen must never download: the chat client and its UI kit. */
const CHAT_PACKAGES = ['npm:stream-chat/', 'npm:stream-chat-react/'];

export function readBundleReport(file: string): BundleReport | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as BundleReport;
}

function chunkOf(report: BundleReport, asset: Asset): ReportedChunk | undefined {
  return report.chunks.find((chunk) => `/${chunk.fileName}` === asset.path);
}

/** A module's package (`npm:react-dom`) or, for app code, its folder two levels down (`src/features/chat`). */
function groupOf(id: string): string {
  if (id.startsWith('npm:')) {
    const parts = id.slice(4).split('/');
    return `npm:${parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}`;
  }
  return id.split('/').slice(0, 3).join('/');
}

export interface ChunkBreakdown {
  /** Module groups by their share of the chunk, largest first, with the rendered (pre-minification) bytes. */
  groups: { name: string; renderedBytes: number }[];
}

export function breakdown(report: BundleReport, asset: Asset, top: number): ChunkBreakdown {
  const sums = new Map<string, number>();
  for (const module of chunkOf(report, asset)?.modules ?? []) {
    const name = groupOf(module.id);
    sums.set(name, (sums.get(name) ?? 0) + module.renderedBytes);
  }
  const groups = [...sums.entries()]
    .map(([name, renderedBytes]) => ({ name, renderedBytes }))
    .sort((a, b) => b.renderedBytes - a.renderedBytes)
    .slice(0, top);
  return { groups };
}

/** The stream-chat / stream-chat-react modules among `assets`, by chunk (empty when the chat stayed out). */
export function chatModulesIn(report: BundleReport, assets: Asset[]): string[] {
  const found: string[] = [];
  for (const asset of assets) {
    const chunk = chunkOf(report, asset);
    const count =
      chunk?.modules.filter((module) =>
        CHAT_PACKAGES.some((prefix) => module.id.startsWith(prefix)),
      ).length ?? 0;
    if (count > 0) found.push(`${asset.path} (${count} modules)`);
  }
  return found;
}
