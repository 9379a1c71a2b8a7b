import { describe, expect, it } from 'vitest';
import { maxVotesError } from './max-votes-error';

describe('maxVotesError', () => {
  it('accepts an empty limit, with or without one vote each', () => {
    expect(maxVotesError('', false)).toBeUndefined();
    expect(maxVotesError('', true)).toBeUndefined();
  });

  it('refuses any limit while each cultivator has one vote', () => {
    expect(maxVotesError('3', true)).toBe('Enforce unique vote is enabled');
  });

  it('refuses anything but digits', () => {
    expect(maxVotesError('x', false)).toBe('Only numbers are allowed');
    expect(maxVotesError('2.5', false)).toBe('Only numbers are allowed');
    expect(maxVotesError('-3', false)).toBe('Only numbers are allowed');
  });

  it('accepts 2 to 10 and refuses numbers outside', () => {
    expect(maxVotesError('2', false)).toBeUndefined();
    expect(maxVotesError('10', false)).toBeUndefined();
    expect(maxVotesError('1', false)).toBe('Type a number from 2 to 10');
    expect(maxVotesError('11', false)).toBe('Type a number from 2 to 10');
    expect(maxVotesError('010', false)).toBeUndefined();
  });
});
