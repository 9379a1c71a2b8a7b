// 10 µs buckets up to 10 s (4 MB per histogram); slower samples count in the last bucket and in max().
const BUCKET_MS = 0.01;
const BUCKETS = 1_000_000;

/** Latency histogram with fixed 10 µs buckets, so 10,000 receivers can record into it without allocating. */
export class LatencyHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  count = 0;
  private maxMs = 0;

  record(ms: number): void {
    const bucket = Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)));
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.count++;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.ceil((p / 100) * this.count);
    let seen = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      seen += this.counts[bucket] ?? 0;
      if (seen >= rank) return bucket === BUCKETS - 1 ? this.maxMs : (bucket + 1) * BUCKET_MS;
    }
    return this.maxMs;
  }

  max(): number {
    return this.maxMs;
  }
}
