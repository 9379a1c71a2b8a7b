import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// Linux reports utime/stime in clock ticks; 100 Hz on every kernel config this box ships with.
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = procFile(pid, 'stat');
  // The command name may contain spaces and parentheses, so fields are counted after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

/** Resident set size and its peak in bytes, from /proc/<pid>/status. */
export function processMemory(pid: number): { rss: number; peakRss: number } {
  const status = procFile(pid, 'status');
  return { rss: statusKb(status, 'VmRSS') * 1024, peakRss: statusKb(status, 'VmHWM') * 1024 };
}

/** A file of /proc/<pid>; a process that is gone is said so instead of failing with a bare ENOENT. */
function procFile(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`process ${pid} has exited (it has no /proc/${pid}/${file})`, {
        cause: error,
      });
    throw error;
  }
}

function statusKb(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] ? Number(match[1]) : 0;
}

/** Busy and total CPU seconds of the whole box (all cores), from /proc/stat. */
export function boxCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

/** Process names of the shared services a cluster node works through (PostgreSQL backends, Redis). */
const BACKEND_NAMES = new Set(['postgres', 'redis-server']);

/**
 * CPU seconds used so far by every PostgreSQL and Redis process on the box, per pid. PostgreSQL forks a backend per
 * connection, so the set is read again at each sample; other test runs share these services, so the figure is
 * an upper bound of what the benchmark made them do.
 */
export function backendCpuSeconds(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!BACKEND_NAMES.has(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) continue;
      seconds.set(Number(entry), processCpuSeconds(Number(entry)));
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return seconds;
}

/** Samples CPU of the server processes, this process, optionally PostgreSQL and Redis, and everything else. */
export class CpuMeter {
  private readonly serverPids: number[];
  private readonly meterBackends: boolean;
  private startWall = 0;
  private startServers: number[] = [];
  private startBackends = new Map<number, number>();
  private startSelf = process.cpuUsage();
  private startBox = { busy: 0, total: 0 };

  constructor(serverPids: number | number[], options: { meterBackends?: boolean } = {}) {
    this.serverPids = [serverPids].flat();
    this.meterBackends = options.meterBackends ?? false;
    this.reset();
  }

  reset(): void {
    this.startWall = performance.now();
    this.startServers = this.serverPids.map(processCpuSeconds);
    if (this.meterBackends) this.startBackends = backendCpuSeconds();
    this.startSelf = process.cpuUsage();
    this.startBox = boxCpuSeconds();
  }

  /**
   * Percent of one core used since the last reset: the servers together and each one, this generator, PostgreSQL
   * and Redis (null unless metered), and all other processes.
   */
  read(): {
    server: number;
    nodes: number[];
    generator: number;
    backend: number | null;
    other: number;
  } {
    const wall = (performance.now() - this.startWall) / 1000;
    const nodes = this.serverPids.map(
      (pid, index) => processCpuSeconds(pid) - (this.startServers[index] ?? 0),
    );
    const server = nodes.reduce((sum, seconds) => sum + seconds, 0);
    const selfUsage = process.cpuUsage(this.startSelf);
    const generator = (selfUsage.user + selfUsage.system) / 1e6;
    let backend: number | null = null;
    if (this.meterBackends) {
      backend = 0;
      // A backend forked during the interval started from zero.
      for (const [pid, seconds] of backendCpuSeconds())
        backend += seconds - (this.startBackends.get(pid) ?? 0);
    }
    const box = boxCpuSeconds();
    const other = Math.max(0, box.busy - this.startBox.busy - server - generator - (backend ?? 0));
    const pct = (seconds: number): number => (wall > 0 ? (seconds / wall) * 100 : 0);
    return {
      server: pct(server),
      nodes: nodes.map(pct),
      generator: pct(generator),
      backend: backend === null ? null : pct(backend),
      other: pct(other),
    };
  }
}

/**
 * Waits (bounded) until the box is quiet: other sessions share these 2 cores, and docs/benchmark-method.md repeats any
 * step where outside processes took more than ~20 % of a core. Returns the busy share (% of one core) last seen.
 */
export async function waitForQuietBox(maxWaitMs: number, quietPct = 25): Promise<number> {
  const deadline = performance.now() + maxWaitMs;
  let quietSeconds = 0;
  let last = boxCpuSeconds();
  let busyPct = 0;
  while (performance.now() < deadline && quietSeconds < 2) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = boxCpuSeconds();
    const wall = (now.total - last.total) / availableParallelism();
    busyPct = wall > 0 ? ((now.busy - last.busy) / wall) * 100 : 0;
    last = now;
    quietSeconds = busyPct < quietPct ? quietSeconds + 1 : 0;
  }
  return busyPct;
}
