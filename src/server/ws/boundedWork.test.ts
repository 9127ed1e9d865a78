import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from "../../protocol/index.ts";
import { tempDir } from "../testing/helpers.ts";
import { startTestServer, type TestServer } from "../testing/testServer.ts";
import { TestClient } from "../testing/wsClient.ts";
import { globTool } from "../tools/glob.ts";
import { grepTool } from "../tools/grep.ts";

/** A second client keeps asking for a round trip while `work` runs; the worst wait in ms. */
async function worstRoundTripWhile(probe: TestClient, work: Promise<unknown>): Promise<number> {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  let worst = 0;
  while (!done) {
    const sent = performance.now();
    probe.send({ type: "latency.probe" });
    await probe.next("error", (frame) => frame.code === "UNKNOWN_TYPE", 30_000);
    worst = Math.max(worst, performance.now() - sent);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await finished;
  return worst;
}

/** Generous for a shared two-core machine; the stalls this guards against lasted seconds. */
const HELD_LATENCY_MS = 750;

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

  it("[R12] a 100,000-character prompt to the demo model does not stall a second client", async () => {
    const attacker = await open();
    attacker.send({ type: "hello", protocol: PROTOCOL_VERSION });
    await attacker.next("welcome");
    attacker.send({ type: "session.create", title: "long prompt" });
    const sessionId = (await attacker.next("snapshot")).session.id;
    const probe = await open();

    attacker.send({ type: "prompt", sessionId, text: "what ".repeat(20_000).trim() });
    const replied = attacker.next(
      "event",
      (frame) =>
        frame.sessionId === sessionId &&
        ["assistant.message", "tool.call", "interaction.requested", "turn.ended"].includes(
          frame.entry.kind,
        ),
      30_000,
    );
    expect(await worstRoundTripWhile(probe, replied)).toBeLessThan(HELD_LATENCY_MS);
  });

  it("[R12] an 852 KB invalid answer frame gets a small error frame and does not stall a second client", async () => {
    const attacker = await open();
    const probe = await open();
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
    const answered = attacker.next("error", (error) => error.code === "BAD_FRAME", 30_000);
    expect(await worstRoundTripWhile(probe, answered)).toBeLessThan(HELD_LATENCY_MS);
    expect(received).toBeLessThan(4_096);
  });

  it("[R12] a burst of costly frames from one client leaves room for another's", async () => {
    const attacker = await open();
    const probe = await open();
    const answers: Record<string, unknown> = {};
    for (let index = 0; index < 900; index++) answers[`q${index}`] = { bad: index };
    const frame = JSON.stringify({ type: "interaction.answer", interactionId: "int_x", answers });
    for (let index = 0; index < 20; index++) attacker.send(frame);
    let answeredCount = 0;
    const allAnswered = (async () => {
      while (answeredCount < 20) {
        await attacker.next("error", (error) => error.code === "BAD_FRAME", 30_000);
        answeredCount++;
      }
    })();
    expect(await worstRoundTripWhile(probe, allAnswered)).toBeLessThan(HELD_LATENCY_MS);
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
      const started = performance.now();
      const result = await grepTool.run(
        { pattern: "^(a+)+$" },
        {
          sessionId: "sess_grep",
          workspace,
          signal: new AbortController().signal,
          mode: () => ({ permissionMode: "build", planEnabled: false }),
        },
      );
      expect(performance.now() - started).toBeLessThan(500);
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
      const started = performance.now();
      const glob = await globTool.run({ pattern: "*a*a*a*a*ab" }, context);
      const grep = await grepTool.run({ pattern: "a", glob: "**/*a*a*a*a*ab" }, context);
      expect(performance.now() - started).toBeLessThan(500);
      expect(glob).toMatchObject({ isError: true, output: expect.stringMatching(/simplify/) });
      expect(grep).toMatchObject({ isError: true, output: expect.stringMatching(/simplify/) });
      expect((await globTool.run({ pattern: "**/*a*a" }, context)).output).toBe("a".repeat(250));
    } finally {
      dir.remove();
    }
  });
});
