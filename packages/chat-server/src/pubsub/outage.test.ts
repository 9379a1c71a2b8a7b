import { describe, expect, it } from 'vitest';
import { createOutageTracker } from './outage.ts';

describe('an outage tracker', () => {
  it('starts an outage at the first failure and ends it at the first success of a call begun afterwards', () => {
    const outage = createOutageTracker();
    const early = outage.begin();
    const alsoEarly = outage.begin();
    expect(outage.failed()).toBe(true);
    // A reply that was on its way before the drop says nothing about the service now.
    expect(outage.succeeded(early)).toBe(false);
    expect(outage.failing).toBe(true);
    expect(outage.failed()).toBe(false);
    expect(outage.succeeded(alsoEarly)).toBe(false);

    const later = outage.begin();
    expect(outage.succeeded(later)).toBe(true);
    expect(outage.failing).toBe(false);
    expect(outage.succeeded(outage.begin())).toBe(false);
  });

  it('does not let a call begun before a later failure end the outage', () => {
    const outage = createOutageTracker();
    outage.failed();
    const between = outage.begin();
    outage.failed();
    expect(outage.succeeded(between)).toBe(false);
    expect(outage.failed()).toBe(false);
  });
});
