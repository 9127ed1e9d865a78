import {
  chmodSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { AccessTokenError, accessTokenPath, loadOrCreateAccessToken } from "./accessToken.ts";
import { tempDir } from "./testing/helpers.ts";
import { resolveInWorkspace, WorkspacePathError } from "./tools/workspacePath.ts";

describe("the workspace's access token", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it("[W8] is made once under .zcode/, owner-only, and reused by every later start", () => {
    const first = loadOrCreateAccessToken(dir.path);
    expect(first.source).toBe("created");
    expect(first.token).toMatch(/^[0-9a-f]{64}$/);
    const path = accessTokenPath(dir.path);
    expect(path).toBe(`${dir.path}/.zcode/access-token`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadOrCreateAccessToken(dir.path)).toEqual({ token: first.token, source: "stored" });
  });

  it("[W8] rotates to a new token that later starts reuse", () => {
    const old = loadOrCreateAccessToken(dir.path).token;
    const rotated = loadOrCreateAccessToken(dir.path, { rotate: true });
    expect(rotated.source).toBe("rotated");
    expect(rotated.token).not.toBe(old);
    expect(statSync(accessTokenPath(dir.path)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateAccessToken(dir.path).token).toBe(rotated.token);
  });

  it("[W8] tightens a loosened file and refuses one that holds no token, keeping it", () => {
    const { token } = loadOrCreateAccessToken(dir.path);
    const path = accessTokenPath(dir.path);
    chmodSync(path, 0o644);
    expect(loadOrCreateAccessToken(dir.path).token).toBe(token);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    writeFileSync(path, "not a token\n");
    expect(() => loadOrCreateAccessToken(dir.path)).toThrow(AccessTokenError);
    expect(() => loadOrCreateAccessToken(dir.path)).toThrow(/--rotate-token/);
    expect(readFileSync(path, "utf8")).toBe("not a token\n");
  });

  it("[R9][W8] is off limits to the agent's file tools, also through a symbolic link", async () => {
    const workspace = realpathSync(dir.path);
    loadOrCreateAccessToken(workspace);
    symlinkSync(accessTokenPath(workspace), join(workspace, "innocent.txt"));
    for (const path of [".zcode/access-token", "./.zcode/../.zcode/access-token", "innocent.txt"]) {
      await expect(resolveInWorkspace(workspace, path)).rejects.toThrow(WorkspacePathError);
    }
    await expect(resolveInWorkspace(workspace, ".zcode/plangate.json")).resolves.toBe(
      join(workspace, ".zcode", "plangate.json"),
    );
  });
});
