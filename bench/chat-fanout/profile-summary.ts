// Summarises V8 .cpuprofile files (from `--profile=<dir>`): where the server's CPU went, by function.
// Usage: node --import tsx bench/chat-fanout/profile-summary.ts <file.cpuprofile> [top=30] [function name]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface FunctionCost {
  name: string;
  selfMs: number;
  totalMs: number;
}

/** Self and inclusive time per function (recursion counted once per sample). */
export function summarizeProfile(profile: CpuProfile): {
  totalMs: number;
  functions: FunctionCost[];
} {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const costs = new Map<string, FunctionCost>();
  const costOf = (node: ProfileNode): FunctionCost => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url
      .replace(/^file:\/\//, '')
      .replace(/^.*\/(node_modules\/|packages\/|bench\/)/, '$1');
    // tsx-compiled sources have no line mapping in the profile, so only plain JS gets a line number.
    const where = file.endsWith('.ts') ? file : file && `${file}:${lineNumber + 1}`;
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    let cost = costs.get(name);
    if (!cost) costs.set(name, (cost = { name, selfMs: 0, totalMs: 0 }));
    return cost;
  };
  let totalMs = 0;
  profile.samples.forEach((sampleId, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const leaf = byId.get(sampleId);
    if (!leaf) return;
    totalMs += ms;
    costOf(leaf).selfMs += ms;
    const seen = new Set<FunctionCost>();
    for (let id: number | undefined = sampleId; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (!node) break;
      const cost = costOf(node);
      if (!seen.has(cost)) {
        seen.add(cost);
        cost.totalMs += ms;
      }
    }
  });
  return { totalMs, functions: [...costs.values()] };
}

/** The heaviest call paths (own code frames only, innermost last) that end in functions named `target`. */
export function callersOf(
  profile: CpuProfile,
  target: string,
  depth = 6,
): { path: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const paths = new Map<string, number>();
  profile.samples.forEach((sampleId, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const frames: string[] = [];
    let hit = false;
    for (let id: number | undefined = sampleId; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame) break;
      if (frame.functionName === target) hit = true;
      if (hit && frame.url.includes('/packages/') && frames.length < depth) {
        frames.unshift(
          `${frame.functionName || '(anonymous)'}@${frame.url.replace(/^.*\/src\//, '')}`,
        );
      }
    }
    if (!hit) return;
    const path = frames.join(' > ') || '(no own frames)';
    paths.set(path, (paths.get(path) ?? 0) + ms);
  });
  return [...paths].map(([path, ms]) => ({ path, ms })).sort((a, b) => b.ms - a.ms);
}

/** Top functions by self time, as text lines (share of the non-idle time). */
export function formatProfile(file: string, top: number): string[] {
  const { totalMs, functions } = summarizeProfile(
    JSON.parse(readFileSync(file, 'utf8')) as CpuProfile,
  );
  const idleMs = functions.filter((f) => f.name === '(idle)').reduce((sum, f) => sum + f.selfMs, 0);
  const busyMs = totalMs - idleMs;
  const pct = (ms: number): string => `${((ms / busyMs) * 100).toFixed(1)} %`;
  const skip = new Set(['(root)', '(idle)', '(program)']);
  const lines = [
    `${file}: ${(totalMs / 1000).toFixed(1)} s sampled, ${(busyMs / 1000).toFixed(1)} s busy`,
    ' self time:',
  ];
  for (const f of [...functions]
    .sort((a, b) => b.selfMs - a.selfMs)
    .filter((f) => f.name !== '(idle)')
    .slice(0, top)) {
    lines.push(`  ${pct(f.selfMs).padStart(7)}  ${f.name}`);
  }
  lines.push(' inclusive time:');
  for (const f of [...functions]
    .sort((a, b) => b.totalMs - a.totalMs)
    .filter((f) => !skip.has(f.name))
    .slice(0, top)) {
    lines.push(`  ${pct(f.totalMs).padStart(7)}  ${f.name}`);
  }
  return lines;
}

/** Summarises every phase profile in `dir` into `dir/summary.txt` and stderr. */
export function printProfileSummaries(dir: string): void {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort();
  const text = files.flatMap((name) => [...formatProfile(join(dir, name), 15), '']).join('\n');
  writeFileSync(join(dir, 'summary.txt'), text);
  console.error(`\nServer CPU profiles by phase (${dir}/summary.txt):\n${text}`);
}

function main(): void {
  const [file, topArg, target] = process.argv.slice(2);
  if (!file) {
    console.error(
      'usage: profile-summary.ts <file.cpuprofile> [top] [function whose callers to list]',
    );
    process.exit(2);
  }
  console.info(formatProfile(file, Number(topArg ?? 30)).join('\n'));
  if (target) {
    console.info(`\ncallers of ${target} (own frames, outermost first):`);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    for (const { path, ms } of callersOf(profile, target).slice(0, 12))
      console.info(`  ${ms.toFixed(0).padStart(7)} ms  ${path}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
