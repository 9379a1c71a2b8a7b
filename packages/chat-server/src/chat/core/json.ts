import { chatError } from '../../errors.ts';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The shape every JSON input (request body, `?payload=`, `?sort=`, the websocket `json` parameter) must keep. No real
 * client comes near these, and they keep every recursive walk and every SQL statement built from input small.
 */
export const JSON_INPUT_LIMITS = {
  /** Nesting of objects and arrays, the outermost one counting as 1. */
  maxDepth: 32,
  /** Items in any one array (Stream itself takes at most 100 users or members per call). */
  maxArrayItems: 1000,
  /** Keys in any one object. */
  maxObjectKeys: 1000,
} as const;

/** Keys that would reach an object's prototype if code ever assigned them; refused wherever they appear. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isPrototypeKey(key: string): boolean {
  return PROTOTYPE_KEYS.has(key);
}

/** Refuses input deeper, wider or with other keys than JSON_INPUT_LIMITS allow, with a code 4 error naming `what`. */
export function assertJsonInput(value: unknown, what: string): void {
  const { maxDepth, maxArrayItems, maxObjectKeys } = JSON_INPUT_LIMITS;
  // Iterative on purpose: a recursive walk is exactly what deeply nested input would overflow.
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > maxDepth)
      throw chatError.input(`${what} is nested too deeply (at most ${maxDepth} levels)`);
    if (Array.isArray(node)) {
      if (node.length > maxArrayItems)
        throw chatError.input(`${what} has an array of more than ${maxArrayItems} items`);
      for (const item of node) pending.push([item, depth + 1]);
      continue;
    }
    const keys = Object.keys(node);
    if (keys.length > maxObjectKeys)
      throw chatError.input(`${what} has an object with more than ${maxObjectKeys} keys`);
    for (const key of keys) {
      if (PROTOTYPE_KEYS.has(key)) throw chatError.input(`${what} may not use the key "${key}"`);
      pending.push([(node as JsonObject)[key], depth + 1]);
    }
  }
}

/** JSON.parse for client input: invalid JSON and input beyond JSON_INPUT_LIMITS are code 4 errors. */
export function parseJsonInput(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw chatError.input(`${what} must be valid JSON`);
  }
  assertJsonInput(value, what);
  return value;
}

/** Parses a JSON text column that holds an object; a corrupt value reads as empty rather than failing a request. */
export function parseObject(text: string | null | undefined): JsonObject {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

export function parseArray(text: string | null | undefined): unknown[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** Splits custom keys from reserved ones, and limits custom data to Stream's 5 KiB per object. */
export function pickCustom(
  input: JsonObject,
  reserved: ReadonlySet<string>,
  what: string,
  limitBytes = 5120,
): JsonObject {
  const custom: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    if (reserved.has(key) || value === undefined) continue;
    if (PROTOTYPE_KEYS.has(key))
      throw chatError.input(`${what} custom data may not use the key "${key}"`);
    custom[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(custom)) > limitBytes) {
    throw chatError.input(`${what} custom data is too large (max ${limitBytes} bytes)`);
  }
  return custom;
}

/** Drops keys whose value is null/undefined so optional fields are absent rather than null on the wire. */
export function compact<T extends JsonObject>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

/**
 * A JSON object already serialised, whose text a route sends as it is (with Stream's `duration` added): a channel
 * state assembled from parts serialised once for many viewers (channels/shared-state.ts).
 */
export class JsonText {
  constructor(
    /** The object's text, `{…}`. */
    readonly text: string,
  ) {}

  /** The same object with one more string field, appended as text (the field must not be in it already). */
  with(key: string, value: string): string {
    const open = this.text.slice(0, -1);
    return `${open}${open === '{' ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(value)}}`;
  }
}
