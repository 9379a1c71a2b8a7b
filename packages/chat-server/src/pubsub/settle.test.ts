import { describe, expect, it } from 'vitest';
import { settlingPublishes, trackPublish } from './settle.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('settling publishes', () => {
  it('answers only once the events published while the work ran have gone out', async () => {
    const publishing = deferred();
    const order: string[] = [];
    const answered = settlingPublishes(async () => {
      trackPublish(publishing.promise.then(() => order.push('published')));
      return 'answer';
    }).then((answer) => order.push(answer));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    publishing.resolve();
    await answered;
    expect(order).toEqual(['published', 'answer']);
  });

  it('does not wait for events published before the work started', async () => {
    const older = deferred();
    trackPublish(older.promise);
    await expect(settlingPublishes(async () => 'answer')).resolves.toBe('answer');
    older.resolve();
  });
});
