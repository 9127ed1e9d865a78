/** Runs `then` in the page's next idle period, or after `timeoutMs` if none comes. */
export function whenIdle(then: () => void, timeoutMs: number): void {
  if ("requestIdleCallback" in window) window.requestIdleCallback(then, { timeout: timeoutMs });
  else setTimeout(then, 0);
}

/**
 * Runs each step in an idle period once the one before it has settled, so chunks fetched ahead
 * of use arrive one by one: fetching, streaming and caching several at once holds the other
 * core while a plan that lands meanwhile is being drawn (issue 15, a page's first plan).
 */
export function oneAtATimeWhenIdle(steps: (() => Promise<unknown>)[], timeoutMs: number): void {
  const next = (index: number) => {
    const step = steps[index];
    if (!step) return;
    whenIdle(() => {
      step()
        .catch(() => {})
        .finally(() => next(index + 1));
    }, timeoutMs);
  };
  next(0);
}
