import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRETS_FILE = 'secrets.json';

interface SecretsFile {
  betterAuthSecret?: unknown;
  [key: string]: unknown;
}

function readSecrets(path: string): SecretsFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as SecretsFile;
  } catch {
    // Reported below with the file name.
  }
  throw new Error(
    `${path} is not a JSON object; fix or delete it (deleting it signs everyone out).`,
  );
}

/**
 * Returns the session-signing secret kept in DATA_DIR/secrets.json, generating it on first use. Keeping it on disk
 * (mode 0600) is what lets sessions survive a restart when BETTER_AUTH_SECRET is not set. Other keys in the file are
 * preserved, so later features can keep their own secrets beside it.
 */
export function loadOrCreateAuthSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SECRETS_FILE);
  const existing = readSecrets(path);
  if (typeof existing?.betterAuthSecret === 'string' && existing.betterAuthSecret.length >= 32) {
    return existing.betterAuthSecret;
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, `${JSON.stringify({ ...existing, betterAuthSecret: secret }, null, 2)}\n`, {
    mode: 0o600,
  });
  // writeFileSync applies `mode` only when it creates the file.
  chmodSync(path, 0o600);
  return secret;
}
