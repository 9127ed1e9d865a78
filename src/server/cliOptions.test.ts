import { CliError, parseCliOptions } from "./cliOptions.ts";

describe("CLI options", () => {
  it("has defaults relative to the workspace", () => {
    expect(parseCliOptions([], "/repo")).toEqual({
      port: undefined,
      workspace: "/repo",
      dbPath: "/repo/.zcode/plangate.db",
      model: undefined,
      config: undefined,
      mode: "build",
      token: undefined,
      rotateToken: false,
      graceMs: 60_000,
      deadlineMs: 300_000,
      host: "127.0.0.1",
      allowRemote: false,
      publicUrl: undefined,
      build: true,
      testClockStart: undefined,
      help: false,
    });
  });

  it("[R1] --test-clock (tests only) takes the epoch ms the server's clock starts at", () => {
    expect(parseCliOptions(["--test-clock", "1767000000000"], "/repo").testClockStart).toBe(
      1_767_000_000_000,
    );
    for (const bad of ["", "-1", "soon", "1.5"]) {
      expect(() => parseCliOptions(["--test-clock", bad], "/repo"), bad).toThrow(CliError);
    }
  });

  it("[S2] --host takes another loopback address (servers behind one proxy) and refuses a network one", () => {
    expect(parseCliOptions(["--host", "127.0.0.2"], "/repo").host).toBe("127.0.0.2");
    for (const bad of ["0.0.0.0", "192.168.1.5", "127.0.0.256"]) {
      expect(() => parseCliOptions(["--host", bad], "/repo")).toThrow(CliError);
    }
    expect(() => parseCliOptions(["--host", "0.0.0.0"], "/repo")).toThrow(/--allow-remote/);
  });

  it("reads every flag", () => {
    const options = parseCliOptions(
      [
        "--port",
        "0",
        "--workspace",
        "ws",
        "--db",
        "x.db",
        "--model",
        "scripted:e.yaml",
        "--mode",
        "plan",
        "--config",
        "conf/models.json",
      ].concat(["--token", "t", "--grace-ms", "10", "--deadline-ms", "20", "--no-build"]),
      "/repo",
    );
    expect(options).toMatchObject({
      port: 0,
      workspace: "/repo/ws",
      dbPath: "/repo/x.db",
      model: "scripted:e.yaml",
      config: "/repo/conf/models.json",
      mode: "plan",
      token: "t",
      graceMs: 10,
      deadlineMs: 20,
      build: false,
    });
  });

  it("rejects bad values with a message naming the flag", () => {
    expect(() => parseCliOptions(["--port", "99999"], "/")).toThrow(
      /--port must be a whole number/,
    );
    expect(() => parseCliOptions(["--port", "abc"], "/")).toThrow(CliError);
    expect(() => parseCliOptions(["--mode", "fast"], "/")).toThrow(/--mode must be one of plan/);
    expect(() => parseCliOptions(["--grace-ms", "10", "--deadline-ms", "5"], "/")).toThrow(/grace/);
    expect(() => parseCliOptions(["--bogus"], "/")).toThrow(CliError);
  });

  it("[R1] --public-url is an origin; --host beyond loopback needs --allow-remote and a public URL", () => {
    const tunnel = parseCliOptions(["--public-url", "https://Laptop.tailnet.ts.net/"], "/");
    expect(tunnel.publicUrl?.origin).toBe("https://laptop.tailnet.ts.net");
    expect(tunnel.host).toBe("127.0.0.1");
    expect(tunnel.allowRemote).toBe(false);
    expect(() => parseCliOptions(["--public-url", "laptop:7420"], "/")).toThrow(/https:\/\//);
    expect(() => parseCliOptions(["--public-url", "https://x.example/plangate"], "/")).toThrow(
      /origin only/,
    );
    expect(() => parseCliOptions(["--public-url", "https://u:p@x.example"], "/")).toThrow(
      /user name/,
    );
    expect(() => parseCliOptions(["--host", "0.0.0.0"], "/")).toThrow(/--allow-remote/);
    expect(() => parseCliOptions(["--host", "192.168.1.20"], "/")).toThrow(/SSH tunnel/);
    expect(() => parseCliOptions(["--host", "0.0.0.0", "--allow-remote"], "/")).toThrow(
      /--allow-remote needs --public-url/,
    );
    expect(parseCliOptions(["--host", "127.0.0.2"], "/").host).toBe("127.0.0.2");
    expect(parseCliOptions(["--host", "::1"], "/").host).toBe("::1");
    const remote = parseCliOptions(
      ["--host", "0.0.0.0", "--allow-remote", "--public-url", "https://plangate.example"],
      "/",
    );
    expect(remote).toMatchObject({ host: "0.0.0.0", allowRemote: true });
  });
});
