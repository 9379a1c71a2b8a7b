import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { installErrorHandler } from './error-handler.ts';
import { installRequestLog, loggingOptions, prettyLogLine } from './log-output.ts';

/** A Fastify app with the product's logging into `lines` (JSON), one route that works and one that breaks. */
async function appLoggingInto(lines: Record<string, unknown>[], level: 'debug' | 'info') {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const options = loggingOptions({ logLevel: level, logFormat: 'json' });
  const app = Fastify({ ...options, logger: { level, stream } });
  installErrorHandler(app);
  installRequestLog(app);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/broken', async () => {
    throw new Error('the database fell over');
  });
  await app.ready();
  return app;
}

describe('request logging', () => {
  it('logs each request once, at debug, with the id the response carries in x-request-id', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingInto(lines, 'debug');
    const response = await app.inject({ method: 'GET', url: '/ok?secret=1' });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const logged = lines.filter((line) => line.msg === 'request');
    expect(logged).toEqual([
      expect.objectContaining({ level: 20, reqId: id, method: 'GET', url: '/ok', status: 200 }),
    ]);
    await app.close();
  });

  it('keeps request lines out of the log at the default info level', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingInto(lines, 'info');
    await app.inject({ method: 'GET', url: '/ok' });
    expect(lines).toEqual([]);
    await app.close();
  });

  it('logs an unexpected error with the request id the client was shown', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = await appLoggingInto(lines, 'info');
    const response = await app.inject({ method: 'GET', url: '/broken' });
    expect(response.statusCode).toBe(500);
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.reqId).toBe(response.headers['x-request-id']);
    await app.close();
  });

  it('never takes the request id from the request', async () => {
    const app = await appLoggingInto([], 'info');
    const response = await app.inject({
      method: 'GET',
      url: '/ok',
      headers: { 'request-id': 'forged\nline', 'x-request-id': 'forged' },
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{8}$/);
    await app.close();
  });
});

describe('prettyLogLine', () => {
  const time = new Date(2026, 10, 25, 14, 3, 9).getTime();

  it('prints time, level, message, request id and the other fields on one line', () => {
    const line = JSON.stringify({
      level: 20,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'ab12cd34',
      msg: 'request',
      method: 'GET',
      url: '/api/me',
      status: 401,
    });
    expect(prettyLogLine(line, false)).toBe(
      '14:03:09 DEBUG request  [ab12cd34]  method=GET url=/api/me status=401',
    );
  });

  it('indents an error stack under its line', () => {
    const line = JSON.stringify({
      level: 50,
      time,
      msg: 'unhandled error',
      err: { message: 'boom', stack: 'Error: boom\n    at x.ts:1' },
    });
    expect(prettyLogLine(line, false)).toBe(
      '14:03:09 ERROR unhandled error\n    Error: boom\n        at x.ts:1',
    );
  });

  it('colours warnings and errors only when asked', () => {
    const line = JSON.stringify({ level: 40, time, msg: 'careful' });
    expect(prettyLogLine(line, true)).toContain('\x1b[33mWARN \x1b[0m');
    expect(prettyLogLine(line, false)).not.toContain('\x1b[');
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(prettyLogLine('plain text', false)).toBe('plain text');
  });
});
