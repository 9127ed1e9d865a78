import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessTokenPath } from "./accessToken.ts";
import { CliProcess } from "./testing/cliProcess.ts";
import { tempDir } from "./testing/helpers.ts";

describe("the CLI's access token", () => {
  let dir: ReturnType<typeof tempDir>;
  const running: CliProcess[] = [];

  beforeEach(() => {
    dir = tempDir();
    writeFileSync(join(dir.path, "README.md"), "# token test\n");
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) await cli.kill();
    dir.remove();
  });

  const start = async (extra: string[] = []) => {
    const cli = CliProcess.spawn(["--port", "0", "--workspace", dir.path, "--no-build", ...extra]);
    running.push(cli);
    const url = await cli.url();
    await cli.kill("SIGTERM");
    return { token: url.searchParams.get("token"), output: cli.output };
  };

  it("[W8] prints the same stored token on every start; --token overrides it; --rotate-token replaces it", async () => {
    const first = await start();
    const stored = readFileSync(accessTokenPath(dir.path), "utf8").trim();
    expect(first.token).toBe(stored);
    expect(statSync(accessTokenPath(dir.path)).mode & 0o777).toBe(0o600);
    expect(first.output).toContain("made an access token");

    const second = await start();
    expect(second.token).toBe(stored);
    expect(second.output).not.toContain("made");

    const overridden = await start(["--token", "given-on-the-command-line"]);
    expect(overridden.token).toBe("given-on-the-command-line");
    expect(readFileSync(accessTokenPath(dir.path), "utf8").trim()).toBe(stored);

    const rotated = await start(["--rotate-token"]);
    expect(rotated.token).not.toBe(stored);
    expect(rotated.output).toContain("made a new access token");
    expect(readFileSync(accessTokenPath(dir.path), "utf8").trim()).toBe(rotated.token);
    expect((await start()).token).toBe(rotated.token);
  }, 120_000);
});
