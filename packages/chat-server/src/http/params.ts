import { chatError } from '../errors.ts';
import { isPlainObject, parseJsonInput, type JsonObject } from '../chat/core/json.ts';

/** The JSON body as an object; an absent body is `{}`. */
export function bodyOf(body: unknown): JsonObject {
  if (body === undefined || body === null || body === '') return {};
  if (!isPlainObject(body)) throw chatError.input('the request body must be a JSON object');
  return body;
}

export function queryOf(query: unknown): Record<string, string | undefined> {
  return (isPlainObject(query) ? query : {}) as Record<string, string | undefined>;
}

/** GET endpoints carry their options as `?payload=<JSON>` (stream-chat serialises objects that way). */
export function payloadOf(query: unknown, key = 'payload'): JsonObject {
  const raw = queryOf(query)[key];
  if (raw === undefined || raw === '') return {};
  const value = parseJsonInput(raw, key);
  if (!isPlainObject(value)) throw chatError.input(`${key} must be a JSON object`);
  return value;
}

/** Query values that may hold JSON (sort) or plain strings. */
export function queryJson(query: unknown): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(queryOf(query))) {
    if (value === undefined) continue;
    if (key === 'sort' || key === 'payload') result[key] = parseJsonInput(value, key);
    else result[key] = value;
  }
  return result;
}

export function stringParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw chatError.input(`${name} is required`);
  return value;
}
