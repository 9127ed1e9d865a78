import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { CliError, DEFAULT_PORT, databaseOf } from "./cliOptions.ts";
import { systemClock } from "./clock.ts";
import { parsePublicUrl, ReachError } from "./http/reach.ts";
import { runningServerPort } from "./store/databaseLock.ts";
import { NamedTokenError, NamedTokenStore } from "./store/namedTokens.ts";
import { refuseSplitWorkspace } from "./store/sharedWorkspace.ts";
import { isPostgresUrl, openStore } from "./store/store.ts";

export const TOKEN_USAGE = `Usage: npm start -- token <issue NAME | revoke NAME | list> [options]

  issue NAME        make an access token for one person or device; it is printed once and
                    only its hash is kept
  revoke NAME       revoke that token: a running plangate closes the person's open pages at once
  list              the names, when each was issued and whether it was revoked

  --workspace DIR   the repository plangate serves (default: current directory)
  --db FILE|URL     session database: SQLite file (default: <workspace>/.zcode/plangate.db)
                    or the PostgreSQL URL the servers use
  --public-url URL  print the link to open with the new token at this address

The workspace's own token (.zcode/access-token) keeps working beside the named ones.
`;

/**
 * S3: `token issue | revoke | list`, run beside a running server: it writes the same database,
 * and the server notices the change (see NamedAccess).
 */
export function runTokenCommand(argv: string[], cwd: string, out: (line: string) => void): void {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [action, name, ...extra] = positionals;
  if (values.help || action === undefined) {
    out(TOKEN_USAGE);
    return;
  }
  if (extra.length > 0)
    throw new CliError(`token ${action} takes one name; quote a name with spaces.`);
  const workspace = resolve(cwd, values.workspace ?? ".");
  const dbPath = databaseOf(values.db, cwd, workspace);
  let publicUrl: URL | undefined;
  try {
    publicUrl = values["public-url"] ? parsePublicUrl(values["public-url"]) : undefined;
  } catch (error) {
    if (error instanceof ReachError) throw new CliError(error.message);
    throw error;
  }

  // S2: a token in a file the workspace's servers do not read would open nothing.
  refuseSplitWorkspace(workspace, dbPath);
  const opened = openStore(dbPath, systemClock);
  try {
    const store = new NamedTokenStore(opened.db);
    switch (action) {
      case "issue": {
        if (name === undefined) throw new CliError("token issue needs a name: token issue NAME.");
        const token = issue(store, name);
        out(
          `Issued a token for ${name.trim()}. It is shown this once; plangate keeps only its hash:`,
        );
        out(token);
        out(
          publicUrl
            ? `${name.trim()} opens ${publicUrl.origin}/?token=${token}`
            : `${name.trim()} opens ${serverAddress(dbPath)}/?token=${token}`,
        );
        return;
      }
      case "revoke": {
        if (name === undefined) throw new CliError("token revoke needs a name: token revoke NAME.");
        if (!store.revoke(name, Date.now()))
          throw new CliError(`nobody named "${name}" holds a live token (see token list).`);
        out(`Revoked ${name.trim()}'s token; a running plangate closes their pages now.`);
        return;
      }
      case "list": {
        const rows = store.list();
        if (rows.length === 0)
          out("No named tokens; only the workspace's own token opens plangate.");
        for (const row of rows) {
          const issued = new Date(row.createdAt).toISOString();
          const state =
            row.revokedAt === null ? "live" : `revoked ${new Date(row.revokedAt).toISOString()}`;
          out(`${row.name}\tissued ${issued}\t${state}`);
        }
        return;
      }
      default:
        throw new CliError(`unknown token command "${action}": use issue, revoke or list.`);
    }
  } finally {
    opened.close();
  }
}

/** The running server's own address when one holds this database, else the default one. */
function serverAddress(dbPath: string): string {
  const port = isPostgresUrl(dbPath) ? undefined : runningServerPort(dbPath);
  return `http://127.0.0.1:${port ?? DEFAULT_PORT}`;
}

function issue(store: NamedTokenStore, name: string): string {
  try {
    return store.issue(name, Date.now());
  } catch (error) {
    if (error instanceof NamedTokenError) throw new CliError(error.message);
    throw error;
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      workspace: { type: "string" },
      db: { type: "string" },
      "public-url": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
