/**
 * Tells one outage of a shared service (Redis) from the next, so each is logged once and its end once. The first
 * failure starts an outage; only the success of a call that began after that failure ends it. A reply that was
 * already on its way when the connection dropped can resolve after the first failure, and counting it as the end
 * would log the same outage again at its next failure.
 */
export interface OutageTracker {
  /** Call when a request to the service starts; pass the answer to `succeeded`. */
  begin(): number;
  /** The call `call` succeeded. True when that ends an outage. */
  succeeded(call: number): boolean;
  /** A call failed. True when that starts an outage. */
  failed(): boolean;
  readonly failing: boolean;
}

export function createOutageTracker(): OutageTracker {
  let begun = 0;
  // Calls begun up to the latest failure cannot tell whether the service is back.
  let beganBeforeFailure = 0;
  let failing = false;
  return {
    begin: () => ++begun,
    succeeded(call) {
      if (!failing || call <= beganBeforeFailure) return false;
      failing = false;
      return true;
    },
    failed() {
      beganBeforeFailure = begun;
      if (failing) return false;
      failing = true;
      return true;
    },
    get failing() {
      return failing;
    },
  };
}
