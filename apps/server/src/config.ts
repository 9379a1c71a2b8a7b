import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Where the web build lives when WEB_DIST is not set: apps/web/dist, found from this file, not from the cwd. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const httpOrigin = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an absolute URL such as https://daohuu.example',
    });
    return z.NEVER;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  ) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an http(s) origin without a path, e.g. https://daohuu.example',
    });
    return z.NEVER;
  }
  return url.origin;
});

/**
 * Every environment variable the product server reads, with its default and meaning. docs/config.md documents
 * each key (a test keeps the two in step).
 */
export const envSchema = z.object({
  PORT: wholeNumber(0, 65535)
    .default(3000)
    .describe('TCP port to listen on (0 picks a free port).'),
  HOST: z.string().default('0.0.0.0').describe('Interface to listen on.'),
  DATA_DIR: z
    .string()
    .default('./data')
    .describe('Directory for daohuu.db and secrets.json; created if missing.'),
  WEB_DIST: z
    .string()
    .optional()
    .describe('Directory of the built web app (default: apps/web/dist).'),
  PUBLIC_URL: httpOrigin
    .optional()
    .describe('Origin users open the app at (default: http://localhost:PORT).'),
  BETTER_AUTH_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (generate one with `openssl rand -base64 32`)')
    .optional()
    .describe(
      'Secret that signs session cookies (default: generated once into DATA_DIR/secrets.json).',
    ),
  SEED_DEMO: flag.default(true).describe('Create the demo admin and demo users on first start.'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info')
    .describe('Log level of the server log (pino).'),
  NODE_ENV: z
    .enum(['development', 'production', 'test'], {
      error: 'must be one of development, production, test',
    })
    .default('development')
    .describe('Read by libraries only; our code never branches on it.'),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1, 86_400)
    .default(900)
    .describe('Length of the sign-in/sign-up rate-limit window.'),
  AUTH_RATE_LIMIT_MAX_PER_IP: wholeNumber(0, 1_000_000)
    .default(30)
    .describe(
      'Sign-in plus sign-up requests allowed per IP address per window (0 turns the limit off).',
    ),
  AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: wholeNumber(0, 1_000_000)
    .default(5)
    .describe('Failed sign-ins or sign-ups allowed per email per window (0 turns the limit off).'),
});

export type LogLevel = z.output<typeof envSchema>['LOG_LEVEL'];

/** The parsed configuration; `buildApp` receives it and never reads the environment itself. */
export interface Config {
  port: number;
  host: string;
  /** Absolute path. */
  dataDir: string;
  /** Absolute path. */
  webDist: string;
  /** An origin: scheme, host and port, no trailing slash. */
  publicUrl: string;
  /** Undefined means "use (or create) the one in DATA_DIR/secrets.json". */
  betterAuthSecret: string | undefined;
  seedDemo: boolean;
  logLevel: LogLevel;
  nodeEnv: 'development' | 'production' | 'test';
  authRateLimit: {
    windowMs: number;
    /** 0 turns the limit off. */
    maxPerIp: number;
    /** 0 turns the limit off. */
    maxFailuresPerEmail: number;
  };
}

/** Thrown by `loadConfig` with one line per bad variable, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses the environment once. Empty values count as unset. Relative paths resolve against `cwd`.
 * Throws `ConfigError` listing every problem.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.');
        const given = input[key];
        const shown =
          key === 'BETTER_AUTH_SECRET' || given === undefined ? '' : ` (got "${given}")`;
        return `${key}: ${issue.message}${shown}`;
      }),
    );
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: resolve(cwd, values.DATA_DIR),
    webDist: values.WEB_DIST === undefined ? DEFAULT_WEB_DIST : resolve(cwd, values.WEB_DIST),
    publicUrl: values.PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    betterAuthSecret: values.BETTER_AUTH_SECRET,
    seedDemo: values.SEED_DEMO,
    logLevel: values.LOG_LEVEL,
    nodeEnv: values.NODE_ENV,
    authRateLimit: {
      windowMs: values.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
      maxPerIp: values.AUTH_RATE_LIMIT_MAX_PER_IP,
      maxFailuresPerEmail: values.AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL,
    },
  };
}
