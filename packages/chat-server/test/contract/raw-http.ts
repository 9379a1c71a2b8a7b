import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ContractEnv } from './helpers.ts';

// Stream error readers, and raw HTTP for input the real client never sends (malformed JSON, forged tokens).
// Tests import these through helpers.ts.

export interface StreamErrorShape {
  code: number | null;
  status?: number;
  message: string;
}

/** Reads the Stream error code from a REST `ErrorFromResponse` or a websocket connect rejection. */
export function readStreamError(error: unknown): StreamErrorShape {
  if (!(error instanceof Error)) throw new Error(`Expected an Error, got ${String(error)}`);
  const withCode = error as Error & { code?: unknown; status?: unknown };
  if (typeof withCode.code === 'number' || withCode.code === null) {
    return {
      code: withCode.code,
      status: typeof withCode.status === 'number' ? withCode.status : undefined,
      message: error.message,
    };
  }
  // connectUser rejects with Error(JSON.stringify({code, StatusCode, message, isWSFailure})).
  try {
    const parsed = JSON.parse(error.message) as {
      code?: number;
      StatusCode?: number;
      message?: string;
    };
    return {
      code: parsed.code ?? null,
      status: parsed.StatusCode,
      message: parsed.message ?? error.message,
    };
  } catch {
    return { code: null, message: error.message };
  }
}

/** Awaits a rejected client call and checks its Stream error code (and HTTP status when given). */
export async function expectStreamError(
  promise: Promise<unknown>,
  expected: { code: number | number[]; status?: number; message?: RegExp },
): Promise<StreamErrorShape> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, 'the call should have been rejected').toBeInstanceOf(Error);
  const shape = readStreamError(caught);
  const codes = Array.isArray(expected.code) ? expected.code : [expected.code];
  expect(codes, `unexpected error: ${shape.message}`).toContain(shape.code);
  if (expected.status !== undefined) expect(shape.status).toBe(expected.status);
  if (expected.message) expect(shape.message).toMatch(expected.message);
  return shape;
}

/** Signs an HS256 JWT by hand, for tokens the client library would refuse to mint (forged, foreign secret). */
export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Replaces a valid token's payload while keeping its (now wrong) signature. */
export function forgeToken(validToken: string, payload: Record<string, unknown>): string {
  const [head, , signature] = validToken.split('.');
  return `${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
}

export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Acting user: sent as `user_id`, and a valid token is minted for it unless `token` is given. */
  userId?: string;
  /** `null` sends no Authorization header at all. */
  token?: string | null;
  query?: Record<string, string>;
  /** Objects are JSON-encoded; strings are sent verbatim (for malformed JSON). */
  body?: string | object;
  headers?: Record<string, string>;
}

export interface RawResponse {
  status: number;
  body: unknown;
}

/** A raw HTTP call with the query params and headers the real client sends, to reach the server with bad input. */
export async function rawRequest(env: ContractEnv, request: RawRequest): Promise<RawResponse> {
  const url = new URL(`${env.server.baseURL}${request.path}`);
  url.searchParams.set('api_key', env.server.apiKey);
  if (request.userId) url.searchParams.set('user_id', request.userId);
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value);

  const token =
    request.token === undefined && request.userId
      ? env.admin.createToken(request.userId)
      : request.token;
  const headers: Record<string, string> = {
    'stream-auth-type': token ? 'jwt' : 'anonymous',
    'X-Stream-Client': 'stream-chat-js-v9.53.0-node|client_bundle=node-cjs',
    'x-client-request-id': randomUUID(),
    ...request.headers,
  };
  if (token) headers.Authorization = token;
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['Content-Type'] ??= 'application/json';
  }

  const response = await fetch(url, { method: request.method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text: the assertion on the body shape reports it
  }
  return { status: response.status, body: parsed };
}

/** Asserts Stream's error JSON: `{code, message, StatusCode, duration, more_info}` with the given code and status. */
export function expectStreamErrorBody(response: RawResponse, code: number, status: number): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({
    code,
    StatusCode: status,
    message: expect.any(String),
    duration: expect.any(String),
    more_info: expect.any(String),
  });
}
