/**
 * S2: which server runs a session's turn. A server takes the session's lock before it starts
 * or resumes a turn and gives it back when the turn ends; a server that dies loses it with
 * its connection, and another takes the session over.
 */
export interface TurnLocks {
  /** True when this server holds the session now (taking it if free). */
  tryTake(sessionId: string): boolean;
  release(sessionId: string): void;
  /**
   * S2: called with each session whose lock this server held, lost (its connection dropped)
   * and could not take back because another server has it now: its turn must stop here.
   */
  onLost?(listener: (sessionId: string) => void): void;
  /** Stops watching the locks. */
  close?(): void;
}
