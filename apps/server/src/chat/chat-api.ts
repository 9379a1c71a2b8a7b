import { StreamChat } from 'stream-chat';
import type { ChatCredentials } from '../config.ts';

/** Thrown by `ChatApi.server` before the embedded chat server can be reached (the app is not listening yet). */
export class ChatNotReadyError extends Error {
  constructor() {
    super('the embedded chat server is not reachable yet: the product server is not listening');
    this.name = 'ChatNotReadyError';
  }
}

export interface ChatApiOptions {
  credentials: ChatCredentials;
  /**
   * The chat API's base URL when it is known at start (hosted mode); `null` means the stream-chat default (Stream's
   * hosted API); `undefined` means "set later through `attach`" (embedded mode, known once the server listens).
   */
  baseURL: string | null | undefined;
  timeoutMs: number;
}

/**
 * The product's only way to chat: a `stream-chat` server-side client (API key + secret) over HTTP, the same in
 * embedded and hosted mode. Tokens are signed locally; every other call goes through `server()`, which refuses
 * until the chat API's address is known, so nothing is ever sent to a default address by mistake.
 */
export class ChatApi {
  readonly apiKey: string;
  readonly #client: StreamChat;
  #reachable: boolean;

  constructor({ credentials, baseURL, timeoutMs }: ChatApiOptions) {
    this.apiKey = credentials.apiKey;
    // One client per product server (never getInstance): tests run several servers in one process.
    this.#client = new StreamChat(credentials.apiKey, credentials.apiSecret, {
      timeout: timeoutMs,
      ...(typeof baseURL === 'string' ? { baseURL } : {}),
    });
    this.#reachable = baseURL !== undefined;
  }

  /** Points the client at the chat API, e.g. the embedded server's loopback URL once the app listens. */
  attach(baseURL: string): void {
    this.#client.setBaseURL(baseURL);
    this.#reachable = true;
  }

  get reachable(): boolean {
    return this.#reachable;
  }

  get baseURL(): string | undefined {
    return this.#reachable ? this.#client.baseURL : undefined;
  }

  /** The server-side client for HTTP calls; throws `ChatNotReadyError` until the chat API's address is known. */
  server(): StreamChat {
    if (!this.#reachable) throw new ChatNotReadyError();
    return this.#client;
  }

  /** A user token valid for `ttlSeconds` from `nowSeconds` (it carries `iat`, so its lifetime is readable). */
  createToken(userId: string, nowSeconds: number, ttlSeconds: number): string {
    return this.#client.createToken(userId, nowSeconds + ttlSeconds, nowSeconds);
  }
}
