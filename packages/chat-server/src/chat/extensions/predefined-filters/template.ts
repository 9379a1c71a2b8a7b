import { chatError } from '../../../errors.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';

/** docs/product-rules.md "Predefined filters" lists these limits; a request past one gets code 4 naming it. */
export const FILTER_LIMITS = {
  nameLength: 128,
  descriptionLength: 1024,
  /** The filter template as JSON, in characters. */
  filterLength: 4096,
  sortFields: 5,
  filtersPerApp: 100,
} as const;

/** One sort entry as stored and answered: Stream's PredefinedFilterSortParam. */
export interface SortTemplate {
  field: string;
  direction: 1 | -1;
  type?: string;
}

const WHOLE = /^\{\{\s*([A-Za-z_]\w*)\s*\}\}$/;
const INSIDE = /\{\{\s*([A-Za-z_]\w*)\s*\}\}/g;

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

export function checkFilterTemplate(filter: JsonObject): JsonObject {
  if (Object.keys(filter).length === 0) throw chatError.input('filter must not be empty');
  if (JSON.stringify(filter).length > FILTER_LIMITS.filterLength)
    throw chatError.input(
      `filter must be at most ${FILTER_LIMITS.filterLength} characters as JSON`,
    );
  return filter;
}

export function checkSortTemplate(
  sort:
    | readonly { field: string; direction?: number | null; type?: string | null }[]
    | null
    | undefined,
): SortTemplate[] | null {
  if (!sort || sort.length === 0) return null;
  if (sort.length > FILTER_LIMITS.sortFields)
    throw chatError.input(`sort may have at most ${FILTER_LIMITS.sortFields} fields`);
  return sort.map((entry, i) => {
    if (!entry.field) throw chatError.input(`sort[${i}].field must not be empty`);
    const direction = entry.direction ?? 1;
    if (direction !== 1 && direction !== -1)
      throw chatError.input(`sort[${i}].direction must be 1 or -1`);
    return { field: entry.field, direction, ...(entry.type ? { type: entry.type } : {}) };
  });
}

/**
 * A value a placeholder takes: a scalar or a list of scalars. An object is refused so that a value can never turn
 * into an operator (`{"$ne": …}`) and change the shape of the stored filter.
 */
function placeholderValue(values: JsonObject, key: string, field: string): Scalar | Scalar[] {
  if (!(key in values))
    throw chatError.input(`${field}.${key} is required by the predefined filter`);
  const value = values[key];
  if (isScalar(value)) return value;
  if (Array.isArray(value) && value.every(isScalar)) return value;
  throw chatError.input(`${field}.${key} must be a string, number, boolean or a list of them`);
}

/**
 * The template with every `{{key}}` replaced from `values`: a string that is one placeholder takes the value itself
 * (a list stays a list), a placeholder inside longer text takes its text. Keys are never interpolated.
 */
export function interpolate(template: unknown, values: JsonObject, field: string): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return placeholderValue(values, whole[1]!, field);
    return template.replace(INSIDE, (_, key: string) => {
      const value = placeholderValue(values, key, field);
      if (Array.isArray(value))
        throw chatError.input(`${field}.${key} must be a single value here`);
      return String(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => interpolate(item, values, field));
  if (isPlainObject(template)) {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(template))
      out[key] = interpolate(value, values, field);
    return out;
  }
  return template;
}

export function interpolateSort(sort: SortTemplate[], values: JsonObject): SortTemplate[] {
  return sort.map((entry) => {
    const field = interpolate(entry.field, values, 'sort_values');
    if (typeof field !== 'string' || field === '')
      throw chatError.input('sort_values must name a sort field as a string');
    return { ...entry, field };
  });
}
