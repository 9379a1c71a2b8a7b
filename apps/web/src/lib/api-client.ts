/** An error answered by our /api: `{ error: { code, message } }`, message already in Vietnamese. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const NETWORK_ERROR_MESSAGE = 'Không thể kết nối đến máy chủ. Vui lòng thử lại.';
const UNKNOWN_ERROR_MESSAGE = 'Đã có lỗi xảy ra. Vui lòng thử lại.';

type Json = Record<string, unknown> | unknown[];

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: Json;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    const code = typeof body.error?.code === 'string' ? body.error.code : `HTTP_${response.status}`;
    const message =
      typeof body.error?.message === 'string' ? body.error.message : UNKNOWN_ERROR_MESSAGE;
    return new ApiError(response.status, code, message);
  } catch {
    return new ApiError(response.status, `HTTP_${response.status}`, UNKNOWN_ERROR_MESSAGE);
  }
}

/** The one way the web app calls its own backend: same-origin JSON, errors thrown as ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) throw await readError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  patch: <T>(path: string, body: Json) => apiRequest<T>(path, { method: 'PATCH', body }),
  post: <T>(path: string, body: Json) => apiRequest<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body: Json) => apiRequest<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string, options?: Pick<RequestOptions, 'query'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
