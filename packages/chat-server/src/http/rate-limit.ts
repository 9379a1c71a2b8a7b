import { isIP } from 'node:net';
import { parseIpAddress } from '../net/ip-address.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../chat/core/access/access.ts';
import type { ChatServerConfig } from '../config.ts';
import { chatError, type ChatError } from '../errors.ts';
import { actorOf } from './context.ts';
import { bypassesRestHooks, routeKey } from './route-key.ts';

export type RateLimitConfig = ChatServerConfig['rateLimits'];

/** One window's state after a hit, as the X-RateLimit-* headers report it. */
export interface WindowState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the window ends and the count starts again. */
  resetAt: number;
}

/**
 * Fixed windows per key (a window starts at the key's first hit, as Stream's per-minute counters do). Memory is
 * bounded: a key is (re)inserted when its window starts, so the map iterates in order of window end, and expired
 * keys, then the oldest live ones once `maxKeys` is reached, are dropped from the front.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.windows.size;
  }

  /** Counts one hit on `key` unless it is already at `limit`; refused hits are not counted. */
  hit(key: string, limit: number): WindowState {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.delete(key);
      this.evict(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    const allowed = window.count < limit;
    if (allowed) window.count += 1;
    return { allowed, limit, remaining: limit - window.count, resetAt: window.resetAt };
  }

  private evict(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetAt > now && this.windows.size < this.maxKeys) return;
      this.windows.delete(key);
    }
  }
}

/**
 * Places per key for what a caller holds open (sockets, uploads in flight). The release a place comes with frees it
 * once, however often it is called, so every exit path may call it.
 */
export class ConcurrencyGate {
  private readonly held = new Map<string, number>();

  /** Takes a place under `key`, or returns undefined when `limit` places are already held (0: no limit). */
  enter(key: string, limit: number): (() => void) | undefined {
    if (limit === 0) return () => undefined;
    const open = this.held.get(key) ?? 0;
    if (open >= limit) return undefined;
    this.held.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}

/**
 * The key an address is counted under: IPv4 (also IPv4-mapped IPv6) as is, IPv6 by its /64, the block one
 * subscriber usually holds, so rotating addresses inside it gains an attacker nothing.
 */
export function addressKey(address: string): string {
  let key = addressKeys.get(address);
  if (key === undefined) {
    // Every request and handshake asks; the addresses seen repeat, and parsing one is not free.
    if (addressKeys.size >= MAX_REMEMBERED_ADDRESSES) addressKeys.clear();
    key = computeAddressKey(address);
    addressKeys.set(address, key);
  }
  return key;
}

const MAX_REMEMBERED_ADDRESSES = 4096;
const addressKeys = new Map<string, string>();

function computeAddressKey(address: string): string {
  const parsed = parseIpAddress(address);
  if (!parsed) return address;
  const { bytes } = parsed;
  const mapped =
    parsed.family === 6 &&
    bytes.slice(0, 10).every((b) => b === 0) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff;
  if (parsed.family === 4 || mapped) return bytes.slice(-4).join('.');
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}

/**
 * The caller's address. X-Forwarded-For is trusted only for the `trustProxy` proxies nearest to us, each of which
 * appends the address it saw: the entry that many places from the right is the client's. Anything else in the
 * header is the client's own say and ignored.
 */
export function clientAddress(request: FastifyRequest, trustProxy: number): string {
  const peer = request.ip;
  if (trustProxy === 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...forwarded, request.socket.remoteAddress ?? peer];
  const client = chain[Math.max(0, chain.length - 1 - trustProxy)];
  return client && isIP(client) ? client : peer;
}

/** Route patterns with their own per-user limit (the rest count per endpoint). */
const USER_GROUPS = new Map<string, 'sendMessage' | 'sendEvent'>([
  ['POST /channels/:type/:id/message', 'sendMessage'],
  ['POST /channels/:type/:id/event', 'sendEvent'],
]);

const CREATE_GUEST = 'POST /guest';

function tooMany(what: string): ChatError {
  return chatError.rateLimited(
    `Too many requests: ${what}. Check the X-RateLimit-* response headers for when to try again.`,
  );
}

/** Windows kept outside this process (Redis), so every node counts the same caller against one limit. */
export interface SharedWindows {
  /** Counts one hit; `local` answers instead while the shared store cannot be reached. */
  hit(key: string, limit: number, local: WindowCounter): Promise<WindowState>;
}

/** What the gateway needs to know to refuse a handshake. */
export interface HandshakeUser {
  appId: string;
  userId: string;
}

/**
 * Every chat rate limit (docs/config.md, "Chat server: rate limits"): REST calls per user per endpoint (verified
 * token), per client address (anonymous callers, POST /guest) and per app (server tokens); websocket handshakes per
 * address and per user, open sockets per user and anonymous ones per address, and frames per socket. REST
 * counters are shared by every node through Redis in a cluster (rate-limit-redis.ts); the websocket limits are
 * counted by each node on its own share of the traffic.
 */
export class RateLimiter {
  private readonly counter: WindowCounter;
  private readonly anonymousSockets = new ConcurrencyGate();

  constructor(
    readonly config: RateLimitConfig,
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedWindows,
  ) {
    this.counter = new WindowCounter(config.windowMs, config.maxTrackedKeys, now);
  }

  addressOf(request: FastifyRequest): string {
    return addressKey(clientAddress(request, this.config.trustProxy));
  }

  private take(key: string, limit: number): WindowState | null {
    if (!this.config.enabled || limit === 0) return null;
    return this.counter.hit(key, limit);
  }

  /** Counts one REST call to `endpoint` ("POST /guest") by `actor`; the state for the headers, null when unlimited. */
  request(actor: Actor, endpoint: string, address: string): WindowState | null {
    const { key, limit } = this.requestLimit(actor, endpoint, address);
    return this.take(key, limit);
  }

  /**
   * `request`, counted in the shared windows when there are some (a cluster counts each caller once across every
   * node); the shared counter falls back to this node's own windows while Redis cannot be reached.
   */
  async countRequest(actor: Actor, endpoint: string, address: string): Promise<WindowState | null> {
    const { key, limit } = this.requestLimit(actor, endpoint, address);
    if (!this.shared || !this.config.enabled || limit === 0) return this.take(key, limit);
    return this.shared.hit(key, limit, this.counter);
  }

  private requestLimit(actor: Actor, endpoint: string, address: string) {
    const { perUser, perAddress, perApp } = this.config;
    if (actor.isServer)
      return { key: `s\n${actor.appId}\n${endpoint}`, limit: perApp.serverEndpoint };
    if (endpoint === CREATE_GUEST)
      return { key: `a\n${address}\nguest`, limit: perAddress.createGuest };
    // An anonymous caller's user_id is its own claim: only its address identifies it.
    if (actor.role === 'anonymous' || !actor.userId)
      return { key: `a\n${address}\n${endpoint}`, limit: perAddress.endpoint };
    const group = USER_GROUPS.get(endpoint);
    const key = `u\n${actor.appId}\n${actor.userId}\n${group ?? endpoint}`;
    return { key, limit: group ? perUser[group] : perUser.endpoint };
  }

  /** Throws code 9 when `address` has used up its handshakes for this window (counted before any auth work). */
  admitHandshake(address: string): void {
    const state = this.take(`a\n${address}\nconnect`, this.config.perAddress.connect);
    if (state && !state.allowed) throw tooMany('too many connections from this address');
  }

  /** Throws code 9 when the user has used up its handshakes for this window. */
  admitUserHandshake(user: HandshakeUser): void {
    const key = `u\n${user.appId}\n${user.userId}\nconnect`;
    const state = this.take(key, this.config.perUser.connect);
    if (state && !state.allowed) throw tooMany('this user connects too often');
  }

  /** Throws code 9 when the user already holds as many open sockets on this node as allowed. */
  admitUserSocket(openSockets: number): void {
    const limit = this.config.perUser.connections;
    if (this.config.enabled && limit > 0 && openSockets >= limit)
      throw tooMany(`this user already has ${openSockets} open connections`);
  }

  /** Takes a place for an anonymous socket from `address` (code 9 when full); the returned release is idempotent. */
  admitAnonymousSocket(address: string): () => void {
    if (!this.config.enabled) return () => undefined;
    const release = this.anonymousSockets.enter(
      address,
      this.config.perAddress.anonymousConnections,
    );
    if (!release) throw tooMany('too many anonymous connections from this address');
    return release;
  }

  /** A counter for one socket's incoming frames: call it per frame; false once the socket is over its limit. */
  frameCounter(): () => boolean {
    const limit = this.config.perConnection.frames;
    if (!this.config.enabled || limit === 0) return () => true;
    let count = 0;
    let resetAt = 0;
    return () => {
      const now = this.now();
      if (now >= resetAt) {
        count = 0;
        resetAt = now + this.config.windowMs;
      }
      count += 1;
      return count <= limit;
    };
  }
}

function setHeaders(reply: FastifyReply, state: WindowState, now: number): void {
  void reply.header('X-RateLimit-Limit', String(state.limit));
  void reply.header('X-RateLimit-Remaining', String(Math.max(0, state.remaining)));
  void reply.header('X-RateLimit-Reset', String(Math.ceil(state.resetAt / 1000)));
  if (!state.allowed)
    void reply.header('Retry-After', String(Math.max(1, Math.ceil((state.resetAt - now) / 1000))));
}

/**
 * Counts every authenticated REST call (registered after the auth hook, which sets the actor) and answers code 9 /
 * HTTP 429 past the limit. Every counted answer carries Stream's X-RateLimit-Limit, -Remaining and -Reset (epoch
 * seconds) headers, plus Retry-After on a refusal.
 */
export function installRateLimitHook(app: FastifyInstance, limiter: RateLimiter): void {
  // Routes are reported with the mount prefix (e.g. /chat); limits are named by the API's own paths.
  const prefix = app.prefix;
  app.addHook('preHandler', async (request, reply) => {
    if (bypassesRestHooks(request)) return;
    const endpoint = routeKey(request, prefix);
    const state = await limiter.countRequest(
      actorOf(request),
      endpoint,
      limiter.addressOf(request),
    );
    if (!state) return;
    setHeaders(reply, state, Date.now());
    if (!state.allowed) throw tooMany(`${endpoint} is limited to ${state.limit} calls per window`);
  });
}
