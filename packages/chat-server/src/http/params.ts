import { chatError } from '../errors.ts';
import { isPlainObject, parseJsonInput, type JsonObject } from '../chat/core/json.ts';

/*
 * Raw access to the query string, for the auth hook (which runs before any route) and for route.ts, which decodes
 * `?payload=` before the route's schema parses it. Routes read their input through defineRoute's schemas.
 */

export function queryOf(query: unknown): Record<string, string | undefined> {
  return (isPlainObject(query) ? query : {}) as Record<string, string | undefined>;
}

/** GET endpoints carry their options as `?payload=<JSON>` (stream-chat serialises objects that way). */
export function payloadOf(query: unknown, key = 'payload'): JsonObject {
  const raw = queryOf(query)[key];
  if (raw === undefined || raw === '') return {};
  if (typeof raw !== 'string') throw chatError.input(`${key} must be a string`);
  const value = parseJsonInput(raw, key);
  if (!isPlainObject(value)) throw chatError.input(`${key} must be a JSON object`);
  return value;
}

/** A required string value, checked where a route decides its order of checks (after a permission check). */
export function stringParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw chatError.input(`${name} is required`);
  return value;
}
