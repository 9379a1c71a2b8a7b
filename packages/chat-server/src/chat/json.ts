import { chatError } from '../errors.ts';

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
