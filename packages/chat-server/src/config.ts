import { z } from 'zod';
import { uploadConfigSchema } from './chat/core/app/upload-config.ts';
import { longPollConfigSchema } from './realtime/longpoll-config.ts';

/** One chat application: its API key, secret and auth policy. Several apps may share a server and a database. */
export const appConfigSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional()
    .describe('Stable id stored in the app_id column of every row; defaults to the API key.'),
  key: z.string().min(1).describe('API key the client passes as `api_key`.'),
  secret: z.string().min(1).describe('HS256 secret that signs user and server tokens.'),
  name: z.string().default('Đạo Hữu').describe('Display name returned by GET /app.'),
  serverOnlyUserFields: z
    .array(z.string().min(1))
    .default([])
    .describe(
      'Custom user fields that only server-side calls may set: a client connect cannot forge them (e.g. tu_vi).',
    ),
  disableAuthChecks: z
    .boolean()
    .default(false)
    .describe(
      'Accept development tokens (signature `devtoken`), as Stream does when auth checks are disabled.',
    ),
  imageUploadConfig: uploadConfigSchema
    .optional()
    .describe('Initial image_upload_config of GET /app (PATCH /app overrides it, stored per app).'),
  fileUploadConfig: uploadConfigSchema
    .optional()
    .describe('Initial file_upload_config of GET /app (PATCH /app overrides it, stored per app).'),
  guests: z
    .object({
      enabled: z
        .boolean()
        .default(false)
        .describe(
          'Allow POST /guest (setGuestUser) and guest sessions. Off: POST /guest and every guest-role user get code 17.',
        ),
      tokenTtlSeconds: z
        .number()
        .int()
        .min(1)
        .max(2_592_000)
        .default(86_400)
        .describe(
          'Lifetime of a guest token (its exp claim); the guest then needs a new POST /guest.',
        ),
    })
    .prefault({})
    .describe('Guest users (docs/config.md, "Chat server: guests").'),
});

export type AppConfig = z.output<typeof appConfigSchema> & { id: string };

const booleanFromEnv = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

/** One limit of the `rateLimits` section; 0 turns it off. */
const rateLimit = (fallback: number, meaning: string) =>
  z.number().int().min(0).default(fallback).describe(`${meaning} (0: no limit).`);

/** Per-user, per-address, per-app and per-socket limits modelled on Stream's (docs/config.md, "Chat server: rate limits"). */
const rateLimitsSchema = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe('Master switch: false turns every rate limit off (benchmarks).'),
    windowMs: z
      .number()
      .int()
      .min(100)
      .max(3_600_000)
      .default(60_000)
      .describe('Length of every window; Stream counts per minute.'),
    trustProxy: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(0)
      .describe(
        'Reverse proxies in front of this server that append to X-Forwarded-For; 0 ignores the header and uses the peer address.',
      ),
    maxTrackedKeys: z
      .number()
      .int()
      .min(100)
      .default(100_000)
      .describe('Counters kept in memory at most; the oldest window is dropped first.'),
    perUser: z
      .object({
        endpoint: rateLimit(300, 'Calls per user per endpoint per window'),
        sendMessage: rateLimit(60, 'Messages a user may send per window (Stream: 60 a minute)'),
        sendEvent: rateLimit(60, 'Typing and custom events a user may send per window'),
        connect: rateLimit(60, 'Websocket handshakes per user per window'),
        connections: rateLimit(50, 'Open websockets per user on one node (Stream: 50)'),
      })
      .prefault({}),
    perAddress: z
      .object({
        endpoint: rateLimit(600, 'Anonymous calls per client address per endpoint per window'),
        createGuest: rateLimit(10, 'POST /guest per client address per window'),
        connect: rateLimit(300, 'Websocket handshakes of anyone per client address per window'),
        anonymousConnections: rateLimit(
          100,
          'Open anonymous websockets per client address on one node',
        ),
      })
      .prefault({}),
    perApp: z
      .object({
        serverEndpoint: rateLimit(10_000, 'Server-side calls per app per endpoint per window'),
      })
      .prefault({}),
    perConnection: z
      .object({
        frames: rateLimit(
          60,
          'Frames a client may send on one websocket per window (it pings every 25 s)',
        ),
      })
      .prefault({}),
  })
  .prefault({});

/** An S3-compatible bucket for uploads (AWS S3, MinIO, Ceph RGW, Cloudflare R2; tested against s3rver). */
const s3ConfigSchema = z.object({
  endpoint: z
    .string()
    .url()
    .optional()
    .describe(
      "Service URL; omit for AWS S3 (the region's endpoint), set it for MinIO, Ceph, R2, s3rver.",
    ),
  region: z.string().min(1).default('us-east-1'),
  bucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'not a valid S3 bucket name')
    .describe('An existing bucket; the server does not create it.'),
  accessKeyId: z
    .string()
    .min(1)
    .optional()
    .describe(
      "With secretAccessKey; omitted, the AWS SDK's default chain (env, instance role) is used.",
    ),
  secretAccessKey: z.string().min(1).optional(),
  forcePathStyle: z
    .boolean()
    .default(false)
    .describe('Path-style URLs (endpoint/bucket/key): needed by MinIO, Ceph and s3rver.'),
  prefix: z
    .string()
    .regex(/^([A-Za-z0-9_.-]+\/)*$/, 'a key prefix of plain segments, each ending with /')
    .refine(
      (prefix) => !prefix.split('/').some((segment) => segment === '.' || segment === '..'),
      'a key prefix may not contain . or .. segments',
    )
    .default('')
    .describe('Prepended to every key (e.g. `chat/`), so deployments can share a bucket.'),
  connectTimeoutMs: z.number().int().positive().max(60_000).default(2000),
  requestTimeoutMs: z.number().int().positive().max(600_000).default(30_000),
});

/** The whole chat-server configuration, validated once by `parseConfig` / `loadConfig`. */
export const chatServerConfigSchema = z.object({
  apps: z
    .array(appConfigSchema)
    .min(1)
    .describe('Apps served by this node (CHAT_APPS json or STREAM_API_KEY/SECRET).'),
  db: z
    .discriminatedUnion('kind', [
      z.object({
        kind: z.literal('sqlite'),
        file: z
          .string()
          .default('./data/chat.sqlite')
          .describe('SQLite database file; `:memory:` for tests.'),
      }),
      z.object({
        kind: z.literal('postgres'),
        url: z.string().url().describe('postgres:// connection string.'),
        schema: z
          .string()
          .regex(/^[a-z_][a-z0-9_]*$/)
          .optional()
          .describe('Search path schema (tests use one per server).'),
        poolSize: z.number().int().min(1).max(100).default(10),
        applicationName: z
          .string()
          .min(1)
          .max(63)
          .default('daohuu-chat')
          .describe(
            "application_name of every connection (a node's sessions in pg_stat_activity); the URL's wins.",
          ),
        connectTimeoutMs: z
          .number()
          .int()
          .positive()
          .max(60_000)
          .default(2000)
          .describe(
            'Longest wait for a database connection (a new one, or a free one of the pool); then code -1 / 503.',
          ),
        statementTimeoutMs: z
          .number()
          .int()
          .min(0)
          .max(600_000)
          .default(5000)
          .describe(
            'PostgreSQL statement_timeout of every query (0: none); migrations run without it.',
          ),
      }),
    ])
    .default({ kind: 'sqlite', file: './data/chat.sqlite' }),
  pubsub: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('memory') }),
      z.object({
        kind: z.literal('redis'),
        url: z.string(),
        keyPrefix: z
          .string()
          .default('chat:')
          .describe('Prefix of every Redis channel (isolates deployments sharing a Redis).'),
        presenceTtlMs: z
          .number()
          .int()
          .min(300)
          .default(20_000)
          .describe(
            "How long a node's sockets keep counting as online and watching after its last heartbeat.",
          ),
      }),
    ])
    .default({ kind: 'memory' }),
  http: z
    .object({
      host: z.string().default('0.0.0.0'),
      port: z
        .number()
        .int()
        .min(0)
        .max(65535)
        .refine(
          (port) => port !== 3030,
          'port 3030 is rewritten to 8800 by the stream-chat client; pick another',
        )
        .default(3300),
      bodyLimitBytes: z
        .number()
        .int()
        .positive()
        .default(1_048_576)
        .describe('JSON body limit; larger bodies get code 22.'),
      publicBaseURL: z
        .string()
        .url()
        .optional()
        .describe('Absolute base URL used in upload links.'),
    })
    .prefault({}),
  uploads: z
    .object({
      dir: z
        .string()
        .default('./data/uploads')
        .describe('Directory for uploaded files (a shared volume in cluster mode).'),
      maxBytes: z
        .number()
        .int()
        .positive()
        .default(100 * 1024 * 1024)
        .describe('Largest accepted upload; larger ones get code 22.'),
      timeoutMs: z
        .number()
        .int()
        .positive()
        .default(10 * 60 * 1000)
        .describe(
          'Longest time one upload body may take to arrive; a slower one gets code 23 and nothing of it is kept.',
        ),
      idleTimeoutMs: z
        .number()
        .int()
        .positive()
        .default(30_000)
        .describe(
          'Longest silence while an upload body is arriving; a stalled one gets code 23 and nothing of it is kept.',
        ),
      maxConcurrentPerUser: z
        .number()
        .int()
        .positive()
        .default(10)
        .describe(
          'Uploads one user may have in flight on one node (the client sends up to 10 at once); more get code 9.',
        ),
      store: z
        .enum(['local', 's3'])
        .default('local')
        .describe(
          'Where uploaded files live: `local` (the `dir` directory) or `s3` (an S3-compatible bucket, `uploads.s3`).',
        ),
      s3: s3ConfigSchema.optional().describe('The bucket when `store` is `s3` (docs/config.md).'),
    })
    .prefault({})
    .refine((uploads) => uploads.store !== 's3' || uploads.s3 !== undefined, {
      message: 'uploads.store is "s3" but uploads.s3 (bucket, region, …) is missing',
      path: ['s3'],
    }),
  jobs: z
    .object({
      leaseMs: z
        .number()
        .int()
        .min(1000)
        .max(600_000)
        .default(15_000)
        .describe(
          'How long a node holds a background job (due reminders, upload clean-up) without renewing it; another node takes over after it.',
        ),
      sweepMs: z
        .number()
        .int()
        .min(100)
        .max(60_000)
        .default(1000)
        .describe(
          'How often each node renews its job leases or looks for lapsed ones (keep it well under leaseMs).',
        ),
    })
    .prefault({})
    .refine((jobs) => jobs.sweepMs * 3 <= jobs.leaseMs, {
      message:
        'jobs.sweepMs must be at most a third of jobs.leaseMs, or a busy holder loses its lease',
      path: ['sweepMs'],
    }),
  linkPreview: z
    .object({
      allowHosts: z
        .array(z.string().min(1))
        .default([])
        .describe(
          'host:port pairs the link-preview fetcher may reach even on private addresses (tests only).',
        ),
      timeoutMs: z.number().int().positive().max(2500).default(2000),
      maxBytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      maxRedirects: z.number().int().min(0).max(3).default(3),
      cacheSize: z.number().int().min(0).default(500),
      cacheTtlMs: z
        .number()
        .int()
        .positive()
        .default(10 * 60 * 1000),
    })
    .prefault({}),
  limits: z
    .object({
      maxMessageLength: z.number().int().positive().default(5000),
      writeBatchMaxRows: z.number().int().positive().default(500),
      writeBatchLingerMs: z
        .number()
        .int()
        .min(0)
        .max(50)
        .default(2)
        .describe(
          'While small group commits keep coming, each waits this long for more writes to join it (0: never waits).',
        ),
      writeBatchPatientLingerMs: z
        .number()
        .int()
        .min(0)
        .max(100)
        .default(20)
        .describe(
          "While commits keep coming, a websocket handshake's writes wait this long for more writes to join them (0: never wait).",
        ),
      socketMaxBufferedBytes: z
        .number()
        .int()
        .positive()
        .default(8 * 1024 * 1024),
      tokenCacheSize: z.number().int().min(0).default(10_000),
      largeChannelWatchers: z
        .number()
        .int()
        .min(0)
        // Below it every watch is announced to every watcher: N arrivals cost N²/2 frames, 500,000 for the first
        // 1,000 watchers of a livestream. With 1,000 here, the step of a watch that sends them was about a fifth
        // of a reconnect storm's watch CPU (BENCHMARKS.md).
        .default(100)
        .describe(
          "Above this many watchers (all nodes together), a channel's user.watching.start/stop are merged (see largeChannelWatchingEventsMs) and its typing and read events are not sent to other watchers, as on Stream.",
        ),
      largeChannelWatchingEventsMs: z
        .number()
        .int()
        .positive()
        .max(60_000)
        // Stream's own automatic feature throttling: above 100 watchers, watcher start/stop events only once every 5
        // seconds. It also spares a reconnect storm a frame to every watcher of a livestream each second.
        .default(5000)
        .describe(
          'A large channel gets at most one user.watching.start and one .stop per this many ms.',
        ),
    })
    .prefault({}),
  rateLimits: rateLimitsSchema,
  longPoll: longPollConfigSchema,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  shutdownGraceMs: z
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(10_000)
    .describe(
      'On SIGTERM/SIGINT the CLI lets requests in progress finish for at most this long before it closes.',
    ),
});

export type ChatServerConfigInput = z.input<typeof chatServerConfigSchema>;
export type ChatServerConfig = Omit<z.output<typeof chatServerConfigSchema>, 'apps'> & {
  apps: AppConfig[];
};

export type DeepPartial<T> = T extends (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** Validates a config object; throws one error listing every bad key. */
export function parseConfig(input: unknown): ChatServerConfig {
  const result = chatServerConfigSchema.safeParse(input);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new Error(`Invalid chat server configuration:\n${lines.join('\n')}`);
  }
  return {
    ...result.data,
    apps: result.data.apps.map((app) => ({ ...app, id: app.id ?? app.key })),
  };
}

const envSchema = z.object({
  CHAT_APPS: z.string().optional(),
  STREAM_API_KEY: z.string().optional(),
  STREAM_API_SECRET: z.string().optional(),
  CHAT_DISABLE_AUTH_CHECKS: booleanFromEnv.optional(),
  DATABASE_URL: z.string().optional(),
  CHAT_DATABASE_FILE: z.string().optional(),
  REDIS_URL: z.string().optional(),
  CHAT_HOST: z.string().optional(),
  CHAT_PORT: z.coerce.number().optional(),
  CHAT_PUBLIC_BASE_URL: z.string().optional(),
  CHAT_BODY_LIMIT_BYTES: z.coerce.number().optional(),
  CHAT_MAX_MESSAGE_LENGTH: z.coerce.number().optional(),
  CHAT_UPLOADS_DIR: z.string().optional(),
  CHAT_UPLOAD_MAX_BYTES: z.coerce.number().optional(),
  CHAT_UPLOADS_STORE: z.string().optional(),
  CHAT_S3_ENDPOINT: z.string().optional(),
  CHAT_S3_REGION: z.string().optional(),
  CHAT_S3_BUCKET: z.string().optional(),
  CHAT_S3_ACCESS_KEY_ID: z.string().optional(),
  CHAT_S3_SECRET_ACCESS_KEY: z.string().optional(),
  CHAT_S3_FORCE_PATH_STYLE: booleanFromEnv.optional(),
  CHAT_S3_PREFIX: z.string().optional(),
  CHAT_JOB_LEASE_MS: z.coerce.number().optional(),
  CHAT_JOB_SWEEP_MS: z.coerce.number().optional(),
  CHAT_LINK_PREVIEW_ALLOW_HOSTS: z.string().optional(),
  CHAT_RATE_LIMITS: booleanFromEnv.optional(),
  CHAT_TRUST_PROXY: z.coerce.number().optional(),
  LOG_LEVEL: z.string().optional(),
  CHAT_DB_CONNECT_TIMEOUT_MS: z.coerce.number().optional(),
  CHAT_DB_STATEMENT_TIMEOUT_MS: z.coerce.number().optional(),
  CHAT_SHUTDOWN_GRACE_MS: z.coerce.number().optional(),
});

/** The uploads section from CHAT_UPLOADS_* and CHAT_S3_*; the bucket section only when some CHAT_S3_* is set. */
function uploadsFromEnv(e: z.output<typeof envSchema>) {
  const s3 = {
    endpoint: e.CHAT_S3_ENDPOINT,
    region: e.CHAT_S3_REGION,
    bucket: e.CHAT_S3_BUCKET,
    accessKeyId: e.CHAT_S3_ACCESS_KEY_ID,
    secretAccessKey: e.CHAT_S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.CHAT_S3_FORCE_PATH_STYLE,
    prefix: e.CHAT_S3_PREFIX,
  };
  return {
    dir: e.CHAT_UPLOADS_DIR,
    maxBytes: e.CHAT_UPLOAD_MAX_BYTES,
    store: e.CHAT_UPLOADS_STORE,
    s3: Object.values(s3).some((value) => value !== undefined) ? s3 : undefined,
  };
}

/** Development credentials used when no app is configured, so `npm run chat` works out of the box. */
export const DEV_APP = { key: 'daohuu-dev-key', secret: 'daohuu-dev-secret-change-me' } as const;

/** Reads the environment once and returns the validated config; the only place that looks at env variables. */
export function loadConfig(env: Record<string, string | undefined>): ChatServerConfig {
  const e = envSchema.parse(env);
  let apps: unknown;
  if (e.CHAT_APPS) {
    try {
      apps = JSON.parse(e.CHAT_APPS);
    } catch {
      throw new Error('Invalid chat server configuration:\n  CHAT_APPS: not valid JSON');
    }
  } else {
    apps = [
      {
        key: e.STREAM_API_KEY ?? DEV_APP.key,
        secret: e.STREAM_API_SECRET ?? DEV_APP.secret,
        disableAuthChecks: e.CHAT_DISABLE_AUTH_CHECKS ?? false,
      },
    ];
  }
  const url = e.DATABASE_URL;
  const db =
    url && /^postgres(ql)?:\/\//.test(url)
      ? {
          kind: 'postgres',
          url,
          connectTimeoutMs: e.CHAT_DB_CONNECT_TIMEOUT_MS,
          statementTimeoutMs: e.CHAT_DB_STATEMENT_TIMEOUT_MS,
        }
      : { kind: 'sqlite', file: e.CHAT_DATABASE_FILE ?? './data/chat.sqlite' };
  return parseConfig({
    apps,
    db,
    pubsub: e.REDIS_URL ? { kind: 'redis', url: e.REDIS_URL } : { kind: 'memory' },
    http: {
      host: e.CHAT_HOST,
      port: e.CHAT_PORT,
      publicBaseURL: e.CHAT_PUBLIC_BASE_URL,
      bodyLimitBytes: e.CHAT_BODY_LIMIT_BYTES,
    },
    uploads: uploadsFromEnv(e),
    jobs: { leaseMs: e.CHAT_JOB_LEASE_MS, sweepMs: e.CHAT_JOB_SWEEP_MS },
    linkPreview: {
      allowHosts: e.CHAT_LINK_PREVIEW_ALLOW_HOSTS?.split(',')
        .map((host) => host.trim())
        .filter(Boolean),
    },
    limits: { maxMessageLength: e.CHAT_MAX_MESSAGE_LENGTH },
    rateLimits: { enabled: e.CHAT_RATE_LIMITS, trustProxy: e.CHAT_TRUST_PROXY },
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.CHAT_SHUTDOWN_GRACE_MS,
  });
}
