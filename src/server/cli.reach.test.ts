import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CliProcess } from "./testing/cliProcess.ts";
import { tempDir } from "./testing/helpers.ts";

describe("the CLI beyond loopback", () => {
  let dir: ReturnType<typeof tempDir>;
  const running: CliProcess[] = [];

  beforeEach(() => {
    dir = tempDir();
    writeFileSync(join(dir.path, "README.md"), "# reach test\n");
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) await cli.kill();
    dir.remove();
  });

  const spawn = (extra: string[]) => {
    const cli = CliProcess.spawn(["--port", "0", "--workspace", dir.path, "--no-build", ...extra]);
    running.push(cli);
    return cli;
  };

  it("[R1] --host 0.0.0.0 alone refuses to start and names the safe ways and the flag", async () => {
    const cli = spawn(["--host", "0.0.0.0"]);
    expect(await cli.exited()).toBe(1);
    expect(cli.output).toContain("--allow-remote");
    expect(cli.output).toContain("SSH tunnel");
    expect(cli.output).not.toMatch(/token=/);
  }, 60_000);

  it("[R1] --public-url is the printed link; an explicit remote bind warns that HTTPS must be in front", async () => {
    const tunnel = spawn(["--public-url", "https://laptop.tailnet.ts.net"]);
    const local = await tunnel.url();
    const token = local.searchParams.get("token");
    expect(tunnel.output).toContain(`https://laptop.tailnet.ts.net/?token=${token}`);
    expect(tunnel.output).not.toContain("WARNING");
    await tunnel.kill("SIGTERM");

    const remote = spawn([
      "--host",
      "0.0.0.0",
      "--allow-remote",
      "--public-url",
      "http://192.168.1.20:7420",
    ]);
    await remote.url();
    await expect.poll(() => remote.output).toMatch(/WARNING: listening on 0\.0\.0\.0:\d+/);
    expect(remote.output).toContain("Put HTTPS in front");
    expect(remote.output).toContain("plain http");
  }, 60_000);
});
