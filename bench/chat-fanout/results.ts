import type { ServerInfo } from './child-protocol.ts';

/** docs/benchmark-method.md: repeat any step where processes outside the benchmark used more than ~20 % of a core. */
export const BUSY_OTHER_PCT = 25;

/** One server process: its address and pid. */
export interface NodeInfo {
  server: ServerInfo;
  pid: number;
}

export interface FanoutTarget {
  kind: 'baseline' | 'ours';
  /** Names the setup in labels and phases (the kind, or e.g. `pg-2nodes` in the cluster benchmark). */
  name: string;
  /** The node the sender posts through (and the channel is created on). */
  server: ServerInfo;
  serverPid: number;
  /** Every node of the setup, the sender's first; receiver i connects to and watches through node i mod length. */
  nodes: NodeInfo[];
  /** Also meter PostgreSQL and Redis processes (they are part of the setup, not "other"). */
  meterBackends: boolean;
  /** Create the sender and the channel with a server token first (our chat server; the baseline needs nothing). */
  createChannel: boolean;
  /** Add every watcher as a channel member before watching (for channel types that only let members read). */
  addMembers: boolean;
}

export interface FanoutConfig {
  /** The server this generator loads (one generator per server: 10,000 sockets each fit ulimit -n 20000). */
  target: FanoutTarget;
  n: number;
  rates: number[];
  stepSeconds: number;
  /** Longest wait for the backlog after the last send of a step. */
  drainSeconds: number;
  /** How many times a step disturbed by other processes (see BUSY_OTHER_PCT) is repeated. */
  busyRetries: number;
  connectInFlight: number;
  channelType: string;
  channelId: string;
}

/** Why a ramp stops after this step (past saturation), or null to go on to the next rate. */
export function stopReason(step: StepResult, drainSeconds: number): string | null {
  if (step.acked === 0) return `no send was acknowledged at ${step.rate} msg/s`;
  if (!step.drained) return `the ${step.rate} msg/s step did not drain within ${drainSeconds} s`;
  if (step.p99 > 2_000) return `p99 above 2 s at ${step.rate} msg/s`;
  return null;
}

export interface StepResult {
  rate: number;
  /** Runs of this step; the least disturbed one is reported. */
  attempts: number;
  sent: number;
  acked: number;
  sendErrors: string[];
  expected: number;
  delivered: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Percent of one core, all server nodes together; `nodeCpu` splits it per node. */
  serverCpu: number;
  nodeCpu: number[];
  generatorCpu: number;
  /** PostgreSQL and Redis processes when metered (then not counted in otherCpu), else null. */
  backendCpu: number | null;
  otherCpu: number;
  drained: boolean;
}

export interface FanoutResult {
  label: string;
  n: number;
  connected: number;
  /** Receivers whose watch request succeeded (first try or the one retry); the expected deliveries use this. */
  watching: number;
  /** Seconds the server needed after the last watch response to go idle. */
  settleSeconds: number;
  connectErrors: string[];
  connectsPerSecond: number;
  watchesPerSecond: number;
  /** Server CPU time (user + system, from /proc) per connect and per watch: the work, whatever else loads the box. */
  cpuMsPerConnect: number;
  cpuMsPerWatch: number;
  /** Server RSS after a full GC: idle, after N connects, and after N connects plus N watches. */
  rssBeforeBytes: number;
  rssConnectedBytes: number;
  rssAfterBytes: number;
  /** Growth per idle connection (connected, not yet watching), after a full GC; NaN if the server could not GC. */
  rssPerConnectionBytes: number;
  heapPerConnectionBytes: number;
  /** Growth per connection once every connection also watches the channel. */
  rssPerWatcherBytes: number;
  heapPerWatcherBytes: number;
  peakRssBytes: number;
  frameBytes: number;
  /** Largest channel query (watch) response body seen. */
  watchResponseBytes: number;
  disconnects: number;
  /** The close frames of those dropped sockets, with counts. */
  disconnectReasons: string[];
  steps: StepResult[];
  stoppedEarly: string | null;
}

export interface DurableConfig {
  label: string;
  server: ServerInfo;
  serverPid: number;
  seconds: number;
  inFlight: number;
  channels: number;
  channelType: string;
  /** Create senders and channels with a server token first (our chat server; the baseline needs nothing). */
  createChannels: boolean;
  /** Also meter PostgreSQL and Redis processes (see FanoutTarget). */
  meterBackends: boolean;
}

export interface DurableResult {
  label: string;
  seconds: number;
  inFlight: number;
  attempted: number;
  acked: number;
  ackedPerSecond: number;
  errors: string[];
  p50: number;
  p99: number;
  serverCpu: number;
  generatorCpu: number;
  backendCpu: number | null;
  otherCpu: number;
  /** Acknowledged ids found by paging the channels, by GET /messages/{id}, and not found at all. */
  foundByQuery: number;
  foundByGet: number;
  lost: number;
  lostSample: string[];
  verifySeconds: number;
}
