import { Agent, request } from 'node:http';

export interface HttpResponse {
  status: number;
  body: string;
}

export interface StreamAuth {
  apiKey: string;
  token: string;
  userId?: string;
  connectionId?: string;
}

const USER_AGENT = 'stream-chat-js-v9.53.0-node|client_bundle=node-cjs';

/** Keep-alive JSON client speaking the REST conventions of stream-chat (stream-chat `client.ts`). */
export class StreamHttpClient {
  private readonly agent: Agent;
  private readonly baseURL: URL;

  constructor(baseURL: string, maxSockets: number) {
    this.baseURL = new URL(baseURL.endsWith('/') ? baseURL : `${baseURL}/`);
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  /** `path` is relative to the base URL (no leading slash), so a `/chat` prefix in baseURL is kept. */
  call(method: string, path: string, auth: StreamAuth, body?: unknown): Promise<HttpResponse> {
    const url = new URL(path.replace(/^\//, ''), this.baseURL);
    url.searchParams.set('api_key', auth.apiKey);
    if (auth.userId !== undefined) url.searchParams.set('user_id', auth.userId);
    if (auth.connectionId !== undefined) url.searchParams.set('connection_id', auth.connectionId);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            Authorization: auth.token,
            'stream-auth-type': 'jwt',
            'X-Stream-Client': USER_AGENT,
            ...(payload
              ? { 'Content-Type': 'application/json', 'Content-Length': payload.length }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () =>
        req.destroy(new Error(`${method} ${url.pathname} timed out after 30 s`)),
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `task` for every index with at most `inFlight` pending at once; returns the failures. */
export async function runPool(
  count: number,
  inFlight: number,
  task: (index: number) => Promise<void>,
): Promise<Error[]> {
  const errors: Error[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      try {
        await task(index);
      } catch (error) {
        errors.push(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return errors;
}

/** Awaits a response and throws with its status and body unless it is a 2xx. */
export async function expectOk(pending: Promise<HttpResponse>): Promise<void> {
  const response = await pending;
  if (response.status < 200 || response.status > 299) {
    throw new Error(`HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  }
}
