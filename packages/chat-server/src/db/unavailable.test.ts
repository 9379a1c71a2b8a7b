import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

function withCode(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it('recognises a refused, reset or timed-out connection', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('recognises PostgreSQL shutting down, starting, full or cancelling, and connection exceptions', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '57014', '08006', '08001'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
  });

  it('recognises a locked SQLite database and a closed one', () => {
    expect(isDatabaseUnavailable(withCode('SQLITE_BUSY'))).toBe(true);
    expect(isDatabaseUnavailable(new TypeError('The database connection is not open'))).toBe(true);
  });

  it('looks through causes and aggregated errors', () => {
    const wrapped = new Error('migration failed', { cause: withCode('ECONNREFUSED') });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(
      isDatabaseUnavailable(new AggregateError([new Error('x'), withCode('ECONNREFUSED')])),
    ).toBe(true);
  });

  it('leaves bugs and bad input alone', () => {
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key value'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('SQLITE_CONSTRAINT'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
