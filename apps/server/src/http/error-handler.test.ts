import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { appError } from '../errors.ts';
import { installErrorHandler } from './error-handler.ts';

async function appThrowing(error: unknown) {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  app.get('/boom', async () => {
    throw error;
  });
  app.post('/echo', { bodyLimit: 100 }, async (request) => request.body);
  await app.ready();
  return app;
}

describe('error handler', () => {
  it('answers an unexpected error with 500 INTERNAL and leaks none of its details', async () => {
    const app = await appThrowing(new Error('SQLITE_CORRUPT at /srv/secret/path.db'));
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: 'INTERNAL', message: 'Đã có lỗi xảy ra, vui lòng thử lại.' },
    });
    expect(response.body).not.toContain('SQLITE');
    await app.close();
  });

  it('answers an AppError with its status, code, message and headers', async () => {
    const app = await appThrowing(appError.tooManyAttempts(42));
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('42');
    expect(response.json()).toEqual({
      error: {
        code: 'TOO_MANY_ATTEMPTS',
        message: 'Đạo hữu đã thử quá nhiều lần. Vui lòng thử lại sau ít phút.',
      },
    });
    await app.close();
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const app = await appThrowing(new Error('unused'));
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"daoHieu": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_JSON');
    await app.close();
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const app = await appThrowing(new Error('unused'));
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(200) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    await app.close();
  });

  it('answers an unsupported content type with 415', async () => {
    const app = await appThrowing(new Error('unused'));
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    await app.close();
  });
});
