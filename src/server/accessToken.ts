import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** W8: where a workspace keeps its access token, beside its database and config. */
export function accessTokenPath(workspace: string): string {
  return join(workspace, ".zcode", "access-token");
}

export class AccessTokenError extends Error {}

const PLAUSIBLE_TOKEN = /^[A-Za-z0-9._~-]{16,512}$/;

export type StoredToken = { token: string; source: "created" | "stored" | "rotated" };

/**
 * W8: the workspace's one access token, made on first use and reused by every later start, so
 * open tabs and MCP agents keep working across restarts. The file is owner-only (0600); a file
 * that is not a token stops the start instead of being replaced silently.
 */
export function loadOrCreateAccessToken(
  workspace: string,
  options: { rotate?: boolean } = {},
): StoredToken {
  return loadOrCreateToken(accessTokenPath(workspace), options);
}

/** B2: where a workspace keeps the token its MCP agents are given. */
export function agentTokenPath(workspace: string): string {
  return join(workspace, ".zcode", "agent-token");
}

/**
 * B2/R7: the token an MCP agent is configured with. It opens `/mcp` and nothing else: not the
 * page, the socket or a notification's action, so an agent cannot answer its own cards with it.
 */
export function loadOrCreateAgentToken(workspace: string): StoredToken {
  return loadOrCreateToken(agentTokenPath(workspace), {});
}

function loadOrCreateToken(path: string, options: { rotate?: boolean }): StoredToken {
  if (options.rotate) return { token: writeNewToken(path), source: "rotated" };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new AccessTokenError(
        `cannot read the access token file ${path}: ${(error as Error).message}`,
      );
    }
    return { token: writeNewToken(path), source: "created" };
  }
  const token = text.trim();
  if (!PLAUSIBLE_TOKEN.test(token)) {
    throw new AccessTokenError(
      `${path} does not hold an access token. Fix or delete it, or start with --rotate-token to write a new one.`,
    );
  }
  // Someone loosened it by hand: the token is as good as a password.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return { token, source: "stored" };
}

function writeNewToken(path: string): string {
  const token = randomBytes(32).toString("hex");
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${token}\n`, { mode: 0o600 });
  // The mode given to writeFileSync passes through the umask; make sure before it is visible.
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return token;
}
