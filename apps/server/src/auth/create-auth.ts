import { MIN_PASSWORD_LENGTH } from '@daohuu/domain';
import type BetterSqlite3 from 'better-sqlite3';
import { betterAuth } from 'better-auth';
import type { BetterAuthOptions } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import type { FastifyBaseLogger } from 'fastify';
import { trustedOriginsFor } from '../http/origins.ts';
import { userRuleHooks } from './user-rules.ts';

export interface CreateAuthOptions {
  sqlite: BetterSqlite3.Database;
  secret: string;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Called after better-auth changes a user row (update-user), so the chat user can follow; awaited. */
  onUserUpdated?: (userId: string) => Promise<unknown>;
}

function authOptions({ sqlite, secret, publicUrl, log, onUserUpdated }: CreateAuthOptions) {
  return {
    database: sqlite,
    secret,
    baseURL: publicUrl,
    basePath: '/api/auth',
    emailAndPassword: { enabled: true, minPasswordLength: MIN_PASSWORD_LENGTH, autoSignIn: true },
    telemetry: { enabled: false },
    // Users must never set these themselves: `input: false` makes sign-up refuse them.
    user: {
      additionalFields: {
        role: { type: 'string', input: false, required: false, defaultValue: 'user' },
        tuVi: { type: 'number', input: false, required: false, defaultValue: 0 },
        balance: { type: 'number', input: false, required: false, defaultValue: 0 },
      },
    },
    // Names and avatars follow packages/domain's rules on every write better-auth makes.
    databaseHooks: userRuleHooks(onUserUpdated),
    // The SPA is served by this server, so the request's own host is trusted besides PUBLIC_URL (http/origins.ts).
    trustedOrigins: (request?: Request) => {
      if (!request) return [];
      const url = new URL(request.url);
      return trustedOriginsFor(publicUrl, url.protocol.slice(0, -1), url.host);
    },
    // Our own limiter answers in our error shape (auth/auth-routes.ts).
    rateLimit: { enabled: false },
    advanced: {
      // Explicit, so behaviour does not depend on NODE_ENV (better-auth skips origin checks when it is "test").
      disableOriginCheck: false,
      disableCSRFCheck: false,
      useSecureCookies: publicUrl.startsWith('https://'),
    },
    // Without this, better-auth prints API errors to the console itself; 4xx are the client's business, so debug.
    onAPIError: {
      onError: (error: unknown) => {
        const status =
          typeof error === 'object' && error && 'statusCode' in error
            ? error.statusCode
            : undefined;
        if (typeof status === 'number' && status < 500)
          log.debug({ err: error }, 'better-auth: request refused');
        else log.error({ err: error }, 'better-auth: request failed');
      },
    },
    logger: {
      level: 'warn',
      log: (level, message, ...args: unknown[]) => {
        const details = args.length > 0 ? { details: args } : {};
        log[level === 'debug' ? 'debug' : level](details, `better-auth: ${message}`);
      },
    },
  } satisfies BetterAuthOptions;
}

export type Auth = ReturnType<typeof createAuthInstance>;

function createAuthInstance(options: CreateAuthOptions) {
  return betterAuth(authOptions(options));
}

/** Creates or upgrades better-auth's tables in the shared SQLite file, then returns the auth instance. */
export async function createAuth(options: CreateAuthOptions): Promise<Auth> {
  const migrations = await getMigrations(authOptions(options));
  await migrations.runMigrations();
  return createAuthInstance(options);
}
