/**
 * The one fetch wrapper for talking to the Prospector API.
 *
 * - Always sends cookies (`credentials: 'include'`) and JSON.
 * - A non-OK answer throws `ApiError`. Its message is the server's JSON `message`
 *   when there is one, else `"<status>: <body text or status text>"`.
 * - An optional `timeoutMs` aborts the request and throws `TimeoutError`
 *   ('Request timeout - operation took too long to complete').
 */

import type { Page } from '@/types/api';

export const TIMEOUT_MESSAGE = 'Request timeout - operation took too long to complete';

export class ApiError extends Error {
  readonly status: number;
  /** The `message` field of the server's JSON body, when it had one. */
  readonly serverMessage: string | undefined;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  readonly body: unknown;

  constructor(status: number, message: string, serverMessage: string | undefined, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/** The server's own message for a failed call, else `fallback` (for toasts). */
export const serverMessageOr = (error: Error, fallback: string) =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;

export class TimeoutError extends Error {
  constructor() {
    super(TIMEOUT_MESSAGE);
    this.name = 'TimeoutError';
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  body?: unknown;
  params?: QueryParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Abort the request and throw `TimeoutError` after this many milliseconds. */
  timeoutMs?: number;
};

export type ApiResponse<T> = {
  data: T;
  status: number;
  headers: Headers;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export function buildUrl(url: string, params?: QueryParams): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.append(key, String(value));
  }
  const query = search.toString();
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function serverMessageOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const { message } = body;
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return undefined;
}

/** Builds the error thrown for a non-OK response. Exported for tests and reuse. */
export function errorFromResponse(status: number, statusText: string, text: string): ApiError {
  const body = parseBody(text);
  const serverMessage = serverMessageOf(body);
  const message = serverMessage ?? `${status}: ${text || statusText}`;
  return new ApiError(status, message, serverMessage, body);
}

async function request<T>(
  method: Method,
  url: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const { body, params, headers, signal, timeoutMs } = options;

  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onOuterAbort = () => controller.abort();
  if (signal) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', onOuterAbort, { once: true });
  }
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => controller.abort(new TimeoutError()), timeoutMs);
  }

  try {
    const response = await fetch(buildUrl(url, params), {
      method,
      credentials: 'include',
      headers: {
        Accept: 'application/json',
        ...(body !== undefined || method !== 'GET' ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      throw errorFromResponse(response.status, response.statusText, text);
    }
    return { data: parseBody(text) as T, status: response.status, headers: response.headers };
  } catch (error) {
    if (controller.signal.reason instanceof TimeoutError) throw controller.signal.reason;
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
  }
}

export const api = {
  request,
  get: async <T>(url: string, options?: RequestOptions) =>
    (await request<T>('GET', url, options)).data,
  post: async <T>(url: string, body?: unknown, options?: RequestOptions) =>
    (await request<T>('POST', url, { ...options, body })).data,
  put: async <T>(url: string, body?: unknown, options?: RequestOptions) =>
    (await request<T>('PUT', url, { ...options, body })).data,
  patch: async <T>(url: string, body?: unknown, options?: RequestOptions) =>
    (await request<T>('PATCH', url, { ...options, body })).data,
  delete: async <T>(url: string, options?: RequestOptions) =>
    (await request<T>('DELETE', url, options)).data,
};

/** Reads that treat 401 as "no data" (e.g. "who is signed in?"). */
export async function nullOn401<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The message to show a person for any thrown value. */
export function errorMessage(error: unknown, fallback = 'Something went wrong'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** A list endpoint's rows plus its `X-Total-Count` (all matches over every page), a floor when
 * `X-Total-Count-Exact: false`. */
export function toPage<T>({ data, headers }: ApiResponse<T[]>): Page<T> {
  const total = Number.parseInt(headers.get('X-Total-Count') ?? '', 10);
  return {
    items: data,
    total: Number.isFinite(total) ? total : data.length,
    exact: headers.get('X-Total-Count-Exact') !== 'false',
  };
}

/** A page's total as people read it: "1,234", or "1,000+" when it is a floor. */
export function formatTotal({ total, exact }: { total: number; exact: boolean }): string {
  return `${total.toLocaleString()}${exact ? '' : '+'}`;
}

/** The per-field messages of a refused write (`{"message", "errors": {"field": "..."}}`), else `{}`. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return {};
  const errors = (error.body as { errors?: unknown }).errors;
  if (typeof errors !== 'object' || errors === null) return {};
  return Object.fromEntries(
    Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
