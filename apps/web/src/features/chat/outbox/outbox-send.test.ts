import { describe, expect, it } from 'vitest';
import { isConnectionFailure } from './outbox-send';

describe('which failed sends the outbox keeps', () => {
  it.each([
    ['no answer at all (status 0, no code)', { status: 0, code: null }, true],
    [
      'axios without a response ("ERR_NETWORK", no status)',
      { code: 'ERR_NETWORK', message: 'Network Error' },
      true,
    ],
    ['a proxy whose server is down (502)', { status: 502, response: { status: 502 } }, true],
    ['a server restarting (503)', { response: { status: 503, data: { code: -1 } } }, true],
    [
      'a refusal: not allowed (403, code 17)',
      { status: 403, response: { status: 403, data: { code: 17 } } },
      false,
    ],
    [
      'a refusal: bad input (400, code 4)',
      { status: 400, response: { status: 400, data: { code: 4 } } },
      false,
    ],
    [
      'a rate limit (429, code 9)',
      { status: 429, response: { status: 429, data: { code: 9 } } },
      false,
    ],
    ['a server fault (500)', { status: 500, response: { status: 500, data: { code: -1 } } }, false],
  ])('%s', (_name, error, kept) => {
    expect(isConnectionFailure(error)).toBe(kept);
  });
});
