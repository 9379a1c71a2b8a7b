import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SECRETS_FILE } from '../auth/secrets.ts';
import type { ChatCredentials } from '../config.ts';

function readSecretsFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Reported below with the file name.
  }
  throw new Error(
    `${path} is not a JSON object; fix or delete it (deleting it signs everyone out).`,
  );
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The embedded chat app's API key and secret, kept in DATA_DIR/secrets.json beside the session secret and generated
 * on first start. Keeping them is what keeps chat tokens and the chat database's app rows valid across restarts.
 * Only a missing half is generated, and other keys of the file are preserved.
 */
export function loadOrCreateChatCredentials(dataDir: string): ChatCredentials {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, SECRETS_FILE);
  const secrets = readSecretsFile(path);
  const stored = {
    apiKey: nonEmptyString(secrets.streamApiKey),
    apiSecret: nonEmptyString(secrets.streamApiSecret),
  };
  if (stored.apiKey !== undefined && stored.apiSecret !== undefined) {
    return { apiKey: stored.apiKey, apiSecret: stored.apiSecret };
  }
  // The key is public (it reaches every browser); the secret signs every chat token.
  const credentials = {
    apiKey: stored.apiKey ?? randomBytes(8).toString('hex'),
    apiSecret: stored.apiSecret ?? randomBytes(32).toString('base64url'),
  };
  const next = {
    ...secrets,
    streamApiKey: credentials.apiKey,
    streamApiSecret: credentials.apiSecret,
  };
  writeFileSync(path, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  // writeFileSync applies `mode` only when it creates the file.
  chmodSync(path, 0o600);
  return credentials;
}
