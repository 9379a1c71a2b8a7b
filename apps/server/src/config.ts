import { join, resolve } from 'node:path';
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

const absoluteHttpUrl = z.string().transform((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    return z.NEVER;
  }
  // The stream-chat client appends paths to it ("/channels", "/connect"), so no trailing slash.
  return url.href.replace(/\/+$/, '');
});

const urlWithScheme = (schemes: readonly string[], example: string) =>
  z.string().refine((value) => {
    try {
      return schemes.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL such as ${example}`);

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

/** Names proxy-addr (Fastify's trustProxy) gives to address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const PROXY_ADDRESS = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;

/**
 * TRUST_PROXY: false (X-Forwarded-For is ignored), true (trusted from anyone: only when nothing but the proxy can
 * reach the server), a hop count, or a comma-separated list of proxy addresses, CIDRs and proxy-addr range names.
 */
const trustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
  if (value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => PROXY_RANGE_NAMES.has(entry) || PROXY_ADDRESS.test(entry))) {
    return entries;
  }
  ctx.addIssue({
    code: 'custom',
    message: 'must be false, true, a hop count, or proxy addresses/CIDRs separated by commas',
  });
  return z.NEVER;
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
    .describe('Log level of the server log (pino); each request is logged at debug.'),
  LOG_FORMAT: z
    .enum(['auto', 'pretty', 'json'], { error: 'must be one of auto, pretty, json' })
    .default('auto')
    .describe(
      'Log lines for a person (pretty) or JSON lines; auto: pretty on a terminal, JSON otherwise.',
    ),
  SHUTDOWN_GRACE_MS: wholeNumber(0, 600_000)
    .default(10_000)
    .describe('On SIGTERM/SIGINT, longest wait for requests in progress before the server closes.'),
  BACKUP_INTERVAL_HOURS: wholeNumber(0, 8760)
    .default(24)
    .describe('Hours between automatic backups of the SQLite databases; 0 turns them off.'),
  BACKUP_RETAIN: wholeNumber(1, 1000)
    .default(7)
    .describe('Backups kept; older ones are deleted after each new backup.'),
  BACKUP_DIR: z
    .string()
    .optional()
    .describe('Directory backups are written to (default: DATA_DIR/backups).'),
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
    .describe(
      'Failed sign-ins or sign-ups one address may make on one email before it must wait, longer after each further failure (0 turns the limit off).',
    ),
  AUTH_RATE_LIMIT_ACCOUNT_FAILURES: wholeNumber(0, 1_000_000)
    .default(100)
    .describe(
      'Failures on one email from all addresses before addresses that never signed in to it are slowed down (0 turns the limit off).',
    ),
  API_RATE_LIMIT_WINDOW_SECONDS: wholeNumber(1, 86_400)
    .default(60)
    .describe('Length of the window of the general /api rate limit.'),
  API_RATE_LIMIT_MAX_PER_IP: wholeNumber(0, 1_000_000)
    .default(1200)
    .describe(
      'Requests to /api allowed per IP address per window, besides the sign-in limits (0 turns the limit off).',
    ),
  TRUST_PROXY: trustProxy
    .default(false)
    .describe(
      'Which reverse proxies may name the client in X-Forwarded-For: false, true, a hop count, or addresses/CIDRs.',
    ),
  CHAT_MODE: z
    .enum(['embedded', 'hosted'], { error: 'must be one of embedded, hosted' })
    .default('embedded')
    .describe("embedded: our chat server at /chat in this process; hosted: Stream's service."),
  STREAM_API_KEY: z
    .string()
    .optional()
    .describe('Chat app API key (embedded default: generated once into DATA_DIR/secrets.json).'),
  STREAM_API_SECRET: z
    .string()
    .optional()
    .describe('Chat app API secret (embedded default: generated once into DATA_DIR/secrets.json).'),
  STREAM_BASE_URL: absoluteHttpUrl
    .optional()
    .describe("Hosted mode: base URL of the Stream API (default: the stream-chat client's own)."),
  CHAT_TOKEN_TTL_SECONDS: wholeNumber(1, 2_592_000)
    .default(3600)
    .describe('Lifetime of the chat user tokens minted by GET /api/chat/token.'),
  CHAT_REQUEST_TIMEOUT_MS: wholeNumber(100, 60_000)
    .default(3000)
    .describe('Timeout of each call the product server makes to the chat API.'),
  DATABASE_URL: urlWithScheme(['postgres:', 'postgresql:'], 'postgres://user@host:5432/db')
    .optional()
    .describe('Embedded mode: PostgreSQL database of the chat server (default: DATA_DIR/chat.db).'),
  REDIS_URL: urlWithScheme(['redis:', 'rediss:'], 'redis://host:6379')
    .optional()
    .describe('Embedded mode: Redis for chat fan-out between processes (default: in-process).'),
  CHAT_TRUST_PROXY: wholeNumber(0, 10)
    .default(0)
    .describe(
      'Embedded mode: X-Forwarded-For hops the chat rate limits trust; 0 uses the client address TRUST_PROXY gives.',
    ),
  CHAT_LINK_PREVIEW_ALLOW_HOSTS: z
    .string()
    .regex(/^[^\s,]+:\d+(,[^\s,]+:\d+)*$/, { error: 'must be host:port pairs separated by commas' })
    .optional()
    .describe(
      'Embedded mode, tests only: host:port pairs link previews may fetch despite private addresses.',
    ),
});

const CHAT_CREDENTIAL_KEYS = ['STREAM_API_KEY', 'STREAM_API_SECRET'] as const;

/** Rules across variables: hosted mode needs both credentials; embedded mode takes both or neither. */
const configSchema = envSchema.superRefine((values, ctx) => {
  const missing = CHAT_CREDENTIAL_KEYS.filter((key) => values[key] === undefined);
  if (values.CHAT_MODE === 'hosted') {
    for (const key of missing) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'is required when CHAT_MODE=hosted' });
    }
  } else if (missing.length === 1) {
    // Half a pair would silently be replaced by a generated one; say so instead.
    for (const key of missing) {
      const other = CHAT_CREDENTIAL_KEYS.find((candidate) => candidate !== key);
      ctx.addIssue({ code: 'custom', path: [key], message: `must be set together with ${other}` });
    }
  }
});

export type LogLevel = z.output<typeof envSchema>['LOG_LEVEL'];

/** How the product reaches chat (docs/architecture.md); the rest of the app takes one path in both modes. */
export type ChatConfig =
  | {
      mode: 'embedded';
      /** Undefined means "use (or create) the pair in DATA_DIR/secrets.json". */
      credentials: ChatCredentials | undefined;
      /** postgres:// URL of the chat database; undefined means SQLite DATA_DIR/chat.db. */
      databaseUrl: string | undefined;
      /** redis:// URL for fan-out between processes; undefined means in-process. */
      redisUrl: string | undefined;
      /** host:port pairs link previews may reach on private addresses (a local test page); empty normally. */
      linkPreviewAllowHosts: string[];
      /** Reverse proxies whose X-Forwarded-For entry the chat rate limits trust; 0 uses the peer address. */
      trustProxy: number;
      /** PUBLIC_URL when set: the origin the chat's upload links use instead of the request's own. */
      publicUrl?: string;
      tokenTtlSeconds: number;
      requestTimeoutMs: number;
    }
  | {
      mode: 'hosted';
      credentials: ChatCredentials;
      /** Undefined means the stream-chat client's default (Stream's hosted API). */
      baseURL: string | undefined;
      tokenTtlSeconds: number;
      requestTimeoutMs: number;
    };

export interface ChatCredentials {
  apiKey: string;
  apiSecret: string;
}

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
  logFormat: 'auto' | 'pretty' | 'json';
  /** How long a shutdown lets requests in progress finish (main.ts). */
  shutdownGraceMs: number;
  /** Online backups of the SQLite databases (backup/). */
  backup: {
    /** Absolute path. */
    dir: string;
    /** 0: no automatic backups (`npm run backup` still works). */
    intervalMs: number;
    retain: number;
  };
  nodeEnv: 'development' | 'production' | 'test';
  authRateLimit: {
    windowMs: number;
    /** 0 turns the limit off. */
    maxPerIp: number;
    /** Free failures per (address, email) before backoff; 0 turns the limit off. */
    maxFailuresPerEmail: number;
    /** Failures per email across addresses before unknown addresses are slowed down; 0 turns it off. */
    maxFailuresPerAccount: number;
  };
  /** Every /api request except the health probe counts against the client's address (http/api-rate-limit.ts). */
  apiRateLimit: {
    windowMs: number;
    /** 0 turns the limit off. */
    maxPerIp: number;
  };
  /** Fastify's trustProxy: whose X-Forwarded-For names the client (auth rate limits, better-auth). */
  trustProxy: boolean | number | string[];
  chat: ChatConfig;
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

/** Never echoed in error messages: secrets, and URLs that may carry a password. */
const SECRET_KEYS = new Set([
  'BETTER_AUTH_SECRET',
  'STREAM_API_SECRET',
  'DATABASE_URL',
  'REDIS_URL',
]);

function chatConfig(values: z.output<typeof envSchema>): ChatConfig {
  const common = {
    tokenTtlSeconds: values.CHAT_TOKEN_TTL_SECONDS,
    requestTimeoutMs: values.CHAT_REQUEST_TIMEOUT_MS,
  };
  const { STREAM_API_KEY: apiKey, STREAM_API_SECRET: apiSecret } = values;
  const credentials =
    apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined;
  if (values.CHAT_MODE === 'hosted') {
    if (!credentials) throw new Error('invariant: configSchema requires credentials when hosted');
    return { mode: 'hosted', credentials, baseURL: values.STREAM_BASE_URL, ...common };
  }
  return {
    mode: 'embedded',
    credentials,
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    linkPreviewAllowHosts: values.CHAT_LINK_PREVIEW_ALLOW_HOSTS?.split(',') ?? [],
    trustProxy: values.CHAT_TRUST_PROXY,
    publicUrl: values.PUBLIC_URL,
    ...common,
  };
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
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.');
        const given = input[key];
        const shown = SECRET_KEYS.has(key) || given === undefined ? '' : ` (got "${given}")`;
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
    logFormat: values.LOG_FORMAT,
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    backup: {
      dir: resolve(cwd, values.BACKUP_DIR ?? join(values.DATA_DIR, 'backups')),
      intervalMs: values.BACKUP_INTERVAL_HOURS * 3_600_000,
      retain: values.BACKUP_RETAIN,
    },
    nodeEnv: values.NODE_ENV,
    authRateLimit: {
      windowMs: values.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000,
      maxPerIp: values.AUTH_RATE_LIMIT_MAX_PER_IP,
      maxFailuresPerEmail: values.AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL,
      maxFailuresPerAccount: values.AUTH_RATE_LIMIT_ACCOUNT_FAILURES,
    },
    apiRateLimit: {
      windowMs: values.API_RATE_LIMIT_WINDOW_SECONDS * 1000,
      maxPerIp: values.API_RATE_LIMIT_MAX_PER_IP,
    },
    trustProxy: values.TRUST_PROXY,
    chat: chatConfig(values),
  };
}
