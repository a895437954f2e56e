import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/mocks/server';

import { ApiError, TIMEOUT_MESSAGE, TimeoutError, api, buildUrl, errorFromResponse, fieldErrorsOf, nullOn401 } from './api-client';

describe('api client', () => {
  it('sends JSON with credentials and parses the JSON answer', async () => {
    let seen: { credentials: string; contentType: string | null; body: unknown } | undefined;
    server.use(
      http.post('/api/echo', async ({ request }) => {
        seen = {
          credentials: request.credentials,
          contentType: request.headers.get('Content-Type'),
          body: await request.json(),
        };
        return HttpResponse.json({ ok: true });
      }),
    );

    await expect(api.post('/api/echo', { a: 1 })).resolves.toEqual({ ok: true });
    expect(seen).toEqual({ credentials: 'include', contentType: 'application/json', body: { a: 1 } });
  });

  it('uses the server JSON message as the error message', async () => {
    server.use(
      http.get('/api/thing', () =>
        HttpResponse.json({ message: 'Login failed. Please check your credentials.' }, { status: 401 }),
      ),
    );
    const error = await api.get('/api/thing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).message).toBe('Login failed. Please check your credentials.');
    expect((error as ApiError).serverMessage).toBe('Login failed. Please check your credentials.');
  });

  it('formats "<status>: <body text>" when the body has no message', async () => {
    server.use(
      http.get('/api/text', () => new HttpResponse('database is on fire', { status: 500 })),
      http.get('/api/json', () => HttpResponse.json({ error: 'nope' }, { status: 400 })),
    );
    await expect(api.get('/api/text')).rejects.toThrow(/^500: database is on fire$/);
    await expect(api.get('/api/json')).rejects.toThrow(/^400: \{"error":"nope"\}$/);
    const error = (await api.get('/api/text').catch((e: unknown) => e)) as ApiError;
    expect(error.serverMessage).toBeUndefined();
  });

  it('falls back to the status text when the body is empty', async () => {
    server.use(
      http.get('/api/empty', () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' })),
    );
    await expect(api.get('/api/empty')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('returns undefined for 204 and exposes response headers', async () => {
    server.use(
      http.post('/api/nothing', () => new HttpResponse(null, { status: 204 })),
      http.get('/api/list', () => HttpResponse.json([1, 2], { headers: { 'X-Total-Count': '42' } })),
    );
    await expect(api.post('/api/nothing')).resolves.toBeUndefined();
    const response = await api.request<number[]>('GET', '/api/list');
    expect(response.data).toEqual([1, 2]);
    expect(response.headers.get('X-Total-Count')).toBe('42');
  });

  it('raises the timeout message when the request takes too long', async () => {
    server.use(
      http.get('/api/slow', async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );
    const error = await api.get('/api/slow', { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(TIMEOUT_MESSAGE);
    expect(TIMEOUT_MESSAGE).toBe('Request timeout - operation took too long to complete');
  });

  it('does not time out a request that answers in time', async () => {
    server.use(http.get('/api/fast', () => HttpResponse.json({ fine: true })));
    await expect(api.get('/api/fast', { timeoutMs: 2000 })).resolves.toEqual({ fine: true });
  });

  it('nullOn401 turns 401 into null but keeps other errors', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json({ message: 'Not signed in' }, { status: 401 })),
      http.get('/api/broken', () => HttpResponse.json({ message: 'boom' }, { status: 500 })),
    );
    await expect(nullOn401(api.get('/api/me'))).resolves.toBeNull();
    await expect(nullOn401(api.get('/api/broken'))).rejects.toThrow('boom');
  });

  it('builds query strings without empty values', () => {
    expect(buildUrl('/api/ops/jobs', { kind: 'noop', status: undefined, limit: 50, offset: 0 })).toBe(
      '/api/ops/jobs?kind=noop&limit=50&offset=0',
    );
    expect(buildUrl('/x', { a: '' })).toBe('/x');
  });
});

describe('fieldErrorsOf', () => {
  it("reads the server's per-field messages, and nothing from other errors", () => {
    const refused = errorFromResponse(422, 'Unprocessable', JSON.stringify({ message: 'Bad', errors: { state: 'Unknown state', n: 3 } }));
    expect(fieldErrorsOf(refused)).toEqual({ state: 'Unknown state' });
    expect(fieldErrorsOf(errorFromResponse(500, 'Oops', 'boom'))).toEqual({});
    expect(fieldErrorsOf(new Error('x'))).toEqual({});
  });
});
