import type { BusEntry, BusMessage } from './pubsub.ts';

/*
 * Wire format of one bus message on Redis: a JSON header with the routing hints, a newline, then the frame text
 * untouched (it is already JSON; embedding it as a string would escape every quote). JSON.stringify never emits a
 * raw newline, so the first newline always ends the header.
 *
 * Decoding checks every part: whatever else shares the Redis server, a message that is not exactly what a node
 * writes is dropped whole, never delivered as an empty or cut frame, and no hint of the wrong type reaches the hub.
 */

type Hints = Omit<BusMessage, 'frame'>;

/** The publishing node rides along: it delivered locally already and skips the copy Redis sends back. */
export function encodeMessage(message: BusMessage, node: string): string {
  const { frame, ...hints } = message;
  return `${JSON.stringify({ ...hints, node })}\n${frame}`;
}

export function decodeMessage(payload: string): { node: string; message: BusMessage } | undefined {
  const cut = payload.indexOf('\n');
  if (cut < 0) return undefined;
  const header = parseObject(payload.slice(0, cut));
  if (!header || typeof header.node !== 'string') return undefined;
  const hints = readHints(header);
  return hints && { node: header.node, message: { ...hints, frame: payload.slice(cut + 1) } };
}

/*
 * Several topics in one Redis message (`publishEach`): one event to many users' topics would otherwise be one
 * PUBLISH per user, most of them to users connected nowhere. The header lists the entries with their routing hints
 * and the index of their frame; the distinct frames follow it, back to back, their lengths in the header.
 */
interface BatchHeader {
  node: string;
  /** Length of each distinct frame, in the order they follow the header. */
  frames: number[];
  entries: (Hints & { topic: string; frame: number })[];
}

export function encodeBatch(entries: readonly BusEntry[], node: string): string {
  const frames: string[] = [];
  const indexOf = new Map<string, number>();
  const listed = entries.map(({ topic, message: { frame, ...hints } }) => {
    let index = indexOf.get(frame);
    if (index === undefined) {
      index = frames.push(frame) - 1;
      indexOf.set(frame, index);
    }
    return { ...hints, topic, frame: index };
  });
  const header: BatchHeader = {
    node,
    frames: frames.map((frame) => frame.length),
    entries: listed,
  };
  return `${JSON.stringify(header)}\n${frames.join('')}`;
}

export function decodeBatch(payload: string): { node: string; entries: BusEntry[] } | undefined {
  const cut = payload.indexOf('\n');
  if (cut < 0) return undefined;
  const header = parseObject(payload.slice(0, cut));
  if (!header || typeof header.node !== 'string') return undefined;
  const { frames: lengths, entries: listed } = header;
  if (!Array.isArray(lengths) || !Array.isArray(listed)) return undefined;
  const frames: string[] = [];
  let at = cut + 1;
  for (const length of lengths as unknown[]) {
    if (!Number.isSafeInteger(length) || (length as number) < 0) return undefined;
    frames.push(payload.slice(at, at + (length as number)));
    at += length as number;
  }
  // The lengths must account for the body exactly: a shorter or longer body means cut or merged frames.
  if (at !== payload.length) return undefined;
  const entries: BusEntry[] = [];
  for (const entry of listed as unknown[]) {
    if (!isObject(entry) || typeof entry.topic !== 'string') return undefined;
    const { topic, frame, ...rest } = entry;
    if (typeof frame !== 'number' || !Number.isInteger(frame) || frames[frame] === undefined)
      return undefined;
    const hints = readHints(rest);
    if (!hints) return undefined;
    entries.push({ topic, message: { ...hints, frame: frames[frame] } });
  }
  return { node: header.node, entries };
}

/**
 * How each routing hint is checked. A mapped type over every hint of `BusMessage`: a hint added there without a
 * check here fails to compile, instead of being dropped on its way between nodes.
 */
const HINT_CHECKS: { [K in keyof Hints]-?: (value: unknown) => boolean } = {
  skipConnectionIds: isStringList,
  skipUserIds: isStringList,
  skipWatchersOf: (value) => typeof value === 'string',
  onlyWatchersOf: (value) => typeof value === 'string',
  watcherCount: (value) => Number.isSafeInteger(value) && (value as number) >= 0,
  ephemeral: (value) => value === true,
};
const HINT_NAMES = Object.keys(HINT_CHECKS) as (keyof Hints)[];

/** The routing hints of a header, each of its own type; undefined when one is not. */
function readHints(fields: Record<string, unknown>): Hints | undefined {
  const hints: Record<string, unknown> = {};
  for (const name of HINT_NAMES) {
    const value = fields[name];
    if (value === undefined) continue;
    if (!HINT_CHECKS[name](value)) return undefined;
    hints[name] = value;
  }
  return hints as Hints;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
