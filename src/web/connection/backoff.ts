export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, capMs: 10_000 };

/**
 * Delay before reconnect attempt `attempt` (1-based): doubling from base up to the cap, then
 * jittered into the upper half so many tabs don't reconnect in lockstep after a restart.
 */
export function backoffDelay(attempt: number, random: number, policy = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(exponent, 30));
  return Math.round(ceiling * (0.5 + 0.5 * random));
}
