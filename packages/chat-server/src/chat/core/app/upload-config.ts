import { z } from 'zod';
import { chatError } from '../../../errors.ts';
import { isPlainObject, type JsonObject } from '../json.ts';

/** Default `size_limit` when an app sets none (docs/product-rules.md §6: 100 MB). */
export const DEFAULT_UPLOAD_SIZE_LIMIT = 100 * 1024 * 1024;

/** One of `image_upload_config` / `file_upload_config` as GET /app returns it and PATCH /app accepts it. */
export const uploadConfigSchema = z.object({
  allowed_file_extensions: z.array(z.string()).default([]),
  blocked_file_extensions: z.array(z.string()).default([]),
  allowed_mime_types: z.array(z.string()).default([]),
  blocked_mime_types: z.array(z.string()).default([]),
  size_limit: z.number().int().min(0).default(0),
});

export type UploadConfig = z.output<typeof uploadConfigSchema>;

export const NO_UPLOAD_RESTRICTION: UploadConfig = uploadConfigSchema.parse({});

/** The rule that refused a file, named as the client names its block reasons (the order of docs/product-rules.md §6). */
export type UploadRule =
  | 'allowed_file_extensions'
  | 'blocked_file_extensions'
  | 'allowed_mime_types'
  | 'blocked_mime_types'
  | 'size_limit';

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot).toLowerCase() : '';
}

/** Extensions may be configured with or without the dot; compare them with it. */
function normalizeExtension(value: string): string {
  const lower = value.trim().toLowerCase();
  return lower.startsWith('.') ? lower : `.${lower}`;
}

/** `image/*` style wildcards match a whole family, as in the client's accept lists. */
function mimeMatches(pattern: string, mimeType: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (p.endsWith('/*')) return mimeType.startsWith(p.slice(0, -1));
  return p === mimeType;
}

export function effectiveSizeLimit(config: UploadConfig, serverMax: number): number {
  return Math.min(config.size_limit > 0 ? config.size_limit : DEFAULT_UPLOAD_SIZE_LIMIT, serverMax);
}

/** The rules 1–4 of docs/product-rules.md §6, checked before any byte is stored; rule 5 (size) is enforced while streaming. */
export function firstFailedRule(
  config: UploadConfig,
  file: { filename: string; mimeType: string; size?: number },
): UploadRule | undefined {
  const extension = extensionOf(file.filename);
  const mimeType = file.mimeType.toLowerCase();
  const allowedExt = config.allowed_file_extensions.map(normalizeExtension);
  if (allowedExt.length > 0 && !allowedExt.includes(extension)) return 'allowed_file_extensions';
  if (config.blocked_file_extensions.map(normalizeExtension).includes(extension))
    return 'blocked_file_extensions';
  if (
    config.allowed_mime_types.length > 0 &&
    !config.allowed_mime_types.some((p) => mimeMatches(p, mimeType))
  )
    return 'allowed_mime_types';
  if (config.blocked_mime_types.some((p) => mimeMatches(p, mimeType))) return 'blocked_mime_types';
  if (file.size !== undefined && config.size_limit > 0 && file.size > config.size_limit)
    return 'size_limit';
  return undefined;
}

const RULE_MESSAGES: Record<UploadRule, string> = {
  allowed_file_extensions: 'the file extension is not in allowed_file_extensions',
  blocked_file_extensions: 'the file extension is in blocked_file_extensions',
  allowed_mime_types: 'the mime type is not in allowed_mime_types',
  blocked_mime_types: 'the mime type is in blocked_mime_types',
  size_limit: 'the file is larger than size_limit',
};

export function uploadRefusal(rule: UploadRule, kind: 'image' | 'file') {
  const message = `upload refused by ${kind}_upload_config.${rule}: ${RULE_MESSAGES[rule]}`;
  return rule === 'size_limit' ? chatError.payloadTooBig(message) : chatError.input(message);
}

/** Validates a PATCH /app upload config (a partial one keeps nothing of the old: Stream replaces it whole). */
export function parseUploadConfig(value: unknown, key: string): UploadConfig {
  if (!isPlainObject(value)) throw chatError.input(`${key} must be an object`);
  const result = uploadConfigSchema.safeParse(value);
  if (!result.success)
    throw chatError.input(
      `${key} is invalid: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return result.data;
}

export function toUploadConfigJson(config: UploadConfig): JsonObject {
  return { ...config };
}
