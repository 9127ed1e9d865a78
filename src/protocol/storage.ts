import { z } from "zod/mini";

/**
 * R3/S1: why the server cannot store changes right now. The page words each kind in its own
 * language; the driver's text (addresses, paths, stacks) stays in the server's log.
 */
export const StorageProblem = z.enum([
  /** The disk, or the database's size limit, is full. */
  "full",
  /** The database file or server takes no writes (permissions, a read-only replica). */
  "readOnly",
  /** The database server cannot be reached (down, restarting, network). */
  "unreachable",
  /** Any other failure of the database (I/O errors, locks that do not clear). */
  "failed",
]);
export type StorageProblem = z.infer<typeof StorageProblem>;

/** Whether the server can store changes; while it cannot, every write is refused whole. */
export const StorageHealth = z.discriminatedUnion("state", [
  z.strictObject({ state: z.literal("ok") }),
  z.strictObject({ state: z.literal("failing"), problem: StorageProblem }),
]);
export type StorageHealth = z.infer<typeof StorageHealth>;
