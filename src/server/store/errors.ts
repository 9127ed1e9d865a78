/** A write to the session database failed; nothing of it was applied (P4, R6). */
export class StorageError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StorageError";
  }
}

export class SessionNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`No session with id ${sessionId}.`);
    this.name = "SessionNotFoundError";
  }
}

/** The driver's or file system's code on an error (a StorageError's is the driver's), or "". */
export function codeOf(error: unknown): string {
  return typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string"
    ? error.code
    : "";
}

/** Runs a database operation and turns driver failures (disk full, I/O, locks) into StorageError. */
export function guardStorage<T>(what: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (
      error instanceof StorageError ||
      error instanceof SessionNotFoundError ||
      error instanceof AlreadyResolvedError ||
      error instanceof AlreadyLateAnsweredError ||
      error instanceof CountdownTakenError
    )
      throw error;
    const code = codeOf(error) || "SQLITE_ERROR";
    const reason = error instanceof Error ? error.message : String(error);
    throw new StorageError(`Could not ${what}: ${reason}`, code, { cause: error });
  }
}

/** R3/S2: the interaction already has its resolution in the log; this one was not written. */
export class AlreadyResolvedError extends Error {
  constructor(readonly interactionId: string) {
    super(`Interaction ${interactionId} is already resolved.`);
    this.name = "AlreadyResolvedError";
  }
}

/** X2/S2: the question already has its one late answer in the log; this one was not written. */
export class AlreadyLateAnsweredError extends Error {
  constructor(readonly interactionId: string) {
    super(`Interaction ${interactionId} already has its late answer.`);
    this.name = "AlreadyLateAnsweredError";
  }
}

/** S2: another server already started (or ruled out) this question's countdown. */
export class CountdownTakenError extends Error {
  constructor(readonly interactionId: string) {
    super(`The countdown of interaction ${interactionId} was already started.`);
    this.name = "CountdownTakenError";
  }
}
