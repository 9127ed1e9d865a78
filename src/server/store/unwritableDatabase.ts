import { accessSync, constants, existsSync } from "node:fs";
import { basename, dirname } from "node:path";

export type UnwritablePart = "file" | "folder" | "fileSystem";

/** The session database cannot be written at start; says which part and what to do. */
export class UnwritableDatabaseError extends Error {
  constructor(
    readonly path: string,
    readonly part: UnwritablePart,
    /** The file that refused writes: the database or its -wal or -shm beside it. */
    readonly file = path,
  ) {
    super(unwritableMessage(path, part, file));
    this.name = "UnwritableDatabaseError";
  }
}

function unwritableMessage(path: string, part: UnwritablePart, file: string): string {
  const name = basename(path);
  switch (part) {
    case "file":
      return (
        `${file === path ? "" : `${basename(file)} beside `}the session database ${path} is read-only, ` +
        "so plangate cannot keep sessions in it; nothing in it was changed. " +
        `Make it writable for the user running plangate (chmod u+w on ${name} and on any ${name}-wal and ${name}-shm beside it, ` +
        "or run plangate as their owner), or give plangate another file with --db."
      );
    case "folder":
      return (
        `the folder ${dirname(path)} of the session database ${name} cannot be written by this user: ` +
        `plangate keeps its lock file there, and SQLite its ${name}-wal and ${name}-shm files; nothing was changed. ` +
        "Make the folder writable (or creatable) for the user running plangate, or give plangate a database in a folder it can write with --db."
      );
    case "fileSystem":
      return (
        `the session database ${path} is on a read-only file system, so plangate cannot keep sessions in it; nothing in it was changed. ` +
        "Give plangate a database on a writable disk with --db."
      );
  }
}

/** Codes that mean "this cannot be written", from SQLite or from the file system. */
const UNWRITABLE = /^(SQLITE_READONLY|SQLITE_CANTOPEN|EACCES|EPERM|EROFS)/;

function writable(path: string): "yes" | "no" | "readOnlyFileSystem" {
  try {
    accessSync(path, constants.W_OK);
    return "yes";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EROFS" ? "readOnlyFileSystem" : "no";
  }
}

/**
 * What a failure to open or lock the database at `path` (with the driver's or file system's
 * `code`) means for the person starting plangate, when it is that something cannot be written;
 * undefined for any other failure.
 */
export function explainUnwritable(path: string, code: string): UnwritableDatabaseError | undefined {
  if (path === ":memory:" || !UNWRITABLE.test(code)) return undefined;
  if (code === "EROFS") return new UnwritableDatabaseError(path, "fileSystem");
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const answer = writable(file);
    if (answer === "readOnlyFileSystem") return new UnwritableDatabaseError(path, "fileSystem");
    if (answer === "no") return new UnwritableDatabaseError(path, "file", file);
  }
  const folder = writable(dirname(path));
  if (code === "SQLITE_READONLY_DIRECTORY" || /^(EACCES|EPERM)$/.test(code) || folder !== "yes") {
    return new UnwritableDatabaseError(
      path,
      folder === "readOnlyFileSystem" ? "fileSystem" : "folder",
    );
  }
  // SQLite took the file as read-only for a reason of its own (its header says so).
  return code.startsWith("SQLITE_READONLY") ? new UnwritableDatabaseError(path, "file") : undefined;
}
