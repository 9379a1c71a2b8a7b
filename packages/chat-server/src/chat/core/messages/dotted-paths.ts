import { chatError } from '../../../errors.ts';
import { isPlainObject, isPrototypeKey, type JsonObject } from '../json.ts';

/*
 * Stream's partial updates name nested custom fields with dots: `set: {'details.topic': 'x'}` sets `topic` inside
 * `details` and keeps its other keys; `unset: ['details.topic']` removes just that key.
 */

const MAX_DEPTH = 5;

function segmentsOf(path: string): string[] {
  const segments = path.split('.');
  if (segments.length > MAX_DEPTH || segments.some((s) => s === '' || isPrototypeKey(s)))
    throw chatError.input(`field path ${path} is not valid`);
  return segments;
}

/** Sets the value at a dotted path, creating (or replacing non-object) intermediate objects. */
export function setPath(target: JsonObject, path: string, value: unknown): void {
  const segments = segmentsOf(path);
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (!isPlainObject(next)) node[segment] = {};
    node = node[segment] as JsonObject;
  }
  node[segments.at(-1)!] = value;
}

/** Removes the key at a dotted path; nothing happens when the path does not exist. */
export function unsetPath(target: JsonObject, path: string): void {
  const segments = segmentsOf(path);
  let node: unknown = target;
  for (const segment of segments.slice(0, -1)) {
    node = isPlainObject(node) ? node[segment] : undefined;
  }
  if (isPlainObject(node)) delete node[segments.at(-1)!];
}

/** Applies the dotted keys of a partial update's custom `set` and `unset` to `custom` (plain keys are left as given). */
export function applyDottedPaths(
  custom: JsonObject,
  unset: readonly string[],
  reserved: ReadonlySet<string>,
): void {
  for (const key of [...Object.keys(custom), ...unset]) {
    if (key.includes('.') && reserved.has(key.split('.')[0]!))
      throw chatError.input(`${key} is not a custom field`);
  }
  for (const key of Object.keys(custom)) {
    if (!key.includes('.')) continue;
    const value = custom[key];
    delete custom[key];
    setPath(custom, key, value);
  }
  for (const key of unset) if (key.includes('.')) unsetPath(custom, key);
}
