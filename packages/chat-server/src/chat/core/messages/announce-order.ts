/**
 * Runs the announcements of one channel one after another, in the order they were asked for. A send is announced
 * right after its commit, and sends committed in one batch ask in commit order; an announcement that waits for the
 * recipients' unread totals must not be overtaken by the next send's.
 */
export function createAnnounceOrder(): (key: string, work: () => Promise<void>) => Promise<void> {
  const tails = new Map<string, Promise<void>>();
  return (key, work) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
