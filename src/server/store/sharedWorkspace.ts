import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isPostgresUrl } from "./store.ts";

/** S2: in a workspace whose sessions live in PostgreSQL, names that database (no password). */
export function sharedDatabaseMarker(workspace: string): string {
  return join(workspace, ".zcode", "shared-database");
}

/** S2: an SQLite server in a workspace that PostgreSQL servers share would split its sessions. */
export class SplitWorkspaceError extends Error {
  constructor(workspace: string, database: string, marker: string) {
    super(
      `the sessions of ${workspace} are kept in PostgreSQL at ${database}, shared by the plangate servers there; on an SQLite file this one would keep a second, separate set. ` +
        `Start it with --db and that database's URL. If this workspace no longer uses PostgreSQL, delete ${marker}.`,
    );
    this.name = "SplitWorkspaceError";
  }
}

/** S2: written by every server on PostgreSQL, so a later one on SQLite knows (and refuses). */
export function markSharedWorkspace(workspace: string, shownDatabase: string): void {
  const marker = sharedDatabaseMarker(workspace);
  mkdirSync(join(workspace, ".zcode"), { recursive: true });
  writeFileSync(marker, `${shownDatabase}\n`);
}

/** S2: throws SplitWorkspaceError for an SQLite file in a workspace PostgreSQL servers share. */
export function refuseSplitWorkspace(workspace: string, location: string): void {
  if (isPostgresUrl(location) || location === ":memory:") return;
  const marker = sharedDatabaseMarker(workspace);
  let database: string;
  try {
    database = readFileSync(marker, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  throw new SplitWorkspaceError(workspace, database || "a database", marker);
}
