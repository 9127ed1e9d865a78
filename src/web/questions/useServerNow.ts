import { useEffect, useState } from "react";

/** Server time (A2): the browser clock corrected by the offset measured at welcome, ticking each second. */
export function useServerNow(clockOffsetMs: number, ticking = true): number {
  const [now, setNow] = useState(() => Date.now() + clockOffsetMs);
  useEffect(() => {
    setNow(Date.now() + clockOffsetMs);
    if (!ticking) return;
    const id = setInterval(() => setNow(Date.now() + clockOffsetMs), 1000);
    return () => clearInterval(id);
  }, [clockOffsetMs, ticking]);
  return now;
}
