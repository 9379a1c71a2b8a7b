import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs`, so a text that counts ("Đến hạn sau 2 phút") moves on by itself. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
