import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_FRAME_BYTES } from "../../protocol/index.ts";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { globTool } from "../tools/glob.ts";
import { grepTool } from "../tools/grep.ts";
import { MAX_FRAME_VALUES } from "./readFrame.ts";

describe("[R12] bounded work per input", () => {
  let t: TestServer;
  const clients: TestClient[] = [];
  const open = async () => {
    const client = await TestClient.open(t.wsUrl, t.browserHeaders);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    t = await startTestServer({ model: "scripted:demo" });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(() => t.stop());

  it("[R12] an 852 KB invalid answer frame is refused by counting its values, before validation, with a small error frame", async () => {
    const attacker = await open();
    const answers: Record<string, unknown> = {};
    for (let index = 0; index < 38_000; index++) answers[`q${index}`] = { bad: index };
    const frame = JSON.stringify({ type: "interaction.answer", interactionId: "int_x", answers });
    expect(frame.length).toBeGreaterThan(850_000);
    expect(frame.length).toBeLessThan(MAX_FRAME_BYTES);

    let received = 0;
    attacker.socket.on("message", (data: Buffer) => {
      received = Math.max(received, data.length);
    });
    attacker.send(frame);
    const error = await attacker.next("error", (frame) => frame.code === "BAD_FRAME", 30_000);
    // Validating and describing 38,000 bad values is what held the server for seconds.
    expect(error.message).toBe(
      `Invalid interaction.answer frame: it holds more than ${MAX_FRAME_VALUES} values.`,
    );
    expect(received).toBeLessThan(4_096);
  });

  it("[R2][R12] a frame holding one array of 480,000 values gets the same error frame, not a thrown RangeError", async () => {
    const attacker = await open();
    const limit = new Array<number>(480_000).fill(0);
    const frame = JSON.stringify({ type: "session.history", sessionId: "ses_x", limit });
    expect(frame.length).toBeLessThan(MAX_FRAME_BYTES);
    attacker.send(frame);
    const error = await attacker.next("error", (frame) => frame.code === "BAD_FRAME", 30_000);
    expect(error.message).toBe(
      `Invalid session.history frame: it holds more than ${MAX_FRAME_VALUES} values.`,
    );
  });

  it("[R12] a burst of costly frames from one client does not hold up a frame another client sent after it", async () => {
    const attacker = await open();
    const probe = await open();
    const answers: Record<string, unknown> = {};
    for (let index = 0; index < 900; index++) answers[`q${index}`] = { bad: index };
    const frame = JSON.stringify({ type: "interaction.answer", interactionId: "int_x", answers });
    const BURST = 20;
    for (let index = 0; index < BURST; index++) attacker.send(frame);
    let attackerAnswered = 0;
    attacker.socket.on("message", (data: Buffer) => {
      if (data.includes('"BAD_FRAME"')) attackerAnswered++;
    });
    // Once the server has started on the burst, the probe's frame must wait for at most the
    // one in hand, not for the nineteen queued behind it.
    await attacker.next("error", (error) => error.code === "BAD_FRAME", 30_000);
    probe.send({ type: "latency.probe" });
    await probe.next("error", (error) => error.code === "UNKNOWN_TYPE", 30_000);
    expect(attackerAnswered).toBeLessThanOrEqual(BURST / 2);
  });

  it("[R12] an unknown frame type of a megabyte is answered with a small error frame", async () => {
    const attacker = await open();
    let received = 0;
    attacker.socket.on("message", (data: Buffer) => {
      received = Math.max(received, data.length);
    });
    attacker.send({ type: "x".repeat(MAX_FRAME_BYTES - 100) });
    await attacker.next("error", (error) => error.code === "UNKNOWN_TYPE");
    expect(received).toBeLessThan(4_096);
  });
});

describe("[R12] Grep runs in linear time", () => {
  it("[R12] `^(a+)+$` over a long line of a's returns at once", async () => {
    const dir = tempDir();
    try {
      const workspace = join(realpathSync(dir.path), "ws");
      mkdirSync(workspace);
      writeFileSync(join(workspace, "a.txt"), `${"a".repeat(27)}!\n${"a".repeat(5_000)}b\n`);
      // Backtracking would take far longer than the test's time limit: a linear engine answers.
      const result = await grepTool.run(
        { pattern: "^(a+)+$" },
        {
          sessionId: "sess_grep",
          workspace,
          signal: new AbortController().signal,
          mode: () => ({ permissionMode: "build", planEnabled: false }),
        },
      );
      expect(result.output).toMatch(/No lines match/);
    } finally {
      dir.remove();
    }
  });

  it("[R12] refuses backreferences and lookaround with a clear message", async () => {
    const context = {
      sessionId: "sess_grep",
      workspace: realpathSync(process.cwd()),
      signal: new AbortController().signal,
      mode: () => ({ permissionMode: "build" as const, planEnabled: false }),
    };
    for (const pattern of ["(a)\\1", "a(?=b)"]) {
      const result = await grepTool.run({ pattern }, context);
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/linear time/);
    }
  });
});

describe("[R12] globs stay cheap", () => {
  it("[R12] Glob and Grep refuse a glob that would backtrack over a long file name", async () => {
    const dir = tempDir();
    try {
      const workspace = join(realpathSync(dir.path), "ws");
      mkdirSync(workspace);
      writeFileSync(join(workspace, "a".repeat(250)), "aaa\n");
      const context = {
        sessionId: "sess_glob",
        workspace,
        signal: new AbortController().signal,
        mode: () => ({ permissionMode: "build" as const, planEnabled: false }),
      };
      const glob = await globTool.run({ pattern: "*a*a*a*a*ab" }, context);
      const grep = await grepTool.run({ pattern: "a", glob: "**/*a*a*a*a*ab" }, context);
      expect(glob).toMatchObject({ isError: true, output: expect.stringMatching(/simplify/) });
      expect(grep).toMatchObject({ isError: true, output: expect.stringMatching(/simplify/) });
      expect((await globTool.run({ pattern: "**/*a*a" }, context)).output).toBe("a".repeat(250));
    } finally {
      dir.remove();
    }
  });
});
