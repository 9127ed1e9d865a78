import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../testing/helpers.ts";
import type { ModelMessage, ModelRequest } from "../provider.ts";
import { ModelError } from "../provider.ts";
import { bundledScenarios, createScriptedProvider, parseScriptedRef } from "./load.ts";
import { loadScenario, parseScenario } from "./scenario.ts";
import { ScriptedProvider } from "./scriptedProvider.ts";

const request = (messages: ModelMessage[], onText?: (t: string) => void): ModelRequest => ({
  system: "",
  messages,
  tools: [],
  signal: new AbortController().signal,
  ...(onText ? { onText } : {}),
});

const scenario = parseScenario(
  `
turns:
  - match: "^plan"
    steps:
      - say: "Planning {{ user }}"
  - steps:
      - say: "Reading for {{user}}"
        tools:
          - name: Read
            input: { path: "{{user}}.md" }
          - name: Glob
            input: { pattern: "*" }
      - say: "Got: {{result}}"
done: "All done."
`,
  "inline.yaml",
);

describe("[M1] scripted provider", () => {
  const provider = new ScriptedProvider("scripted/test", scenario);

  it("picks the turn by the latest user message and plays its first step", async () => {
    const response = await provider.complete(request([{ role: "user", content: "PLAN it" }]));
    expect(response).toEqual({ text: "Planning PLAN it", toolCalls: [], stopReason: "end" });
  });

  it("calls tools with templated input and ids derived from the conversation", async () => {
    const response = await provider.complete(request([{ role: "user", content: "notes" }]));
    expect(response.stopReason).toBe("tool_use");
    expect(response.toolCalls).toEqual([
      { id: "call_1_0", name: "Read", input: { path: "notes.md" } },
      { id: "call_1_1", name: "Glob", input: { pattern: "*" } },
    ]);
  });

  it("derives its position from the messages alone and echoes tool results", async () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "notes" },
      { role: "assistant", content: "Reading", toolCalls: [] },
      { role: "tool", toolCallId: "a", name: "Read", content: "line one", isError: false },
      { role: "tool", toolCallId: "b", name: "Glob", content: "a.md", isError: false },
    ];
    const again = new ScriptedProvider("scripted/test", scenario);
    const response = await again.complete(request(messages));
    expect(response.text).toBe("Got: line one\n\na.md");
    messages.push({ role: "assistant", content: response.text, toolCalls: [] });
    expect((await again.complete(request(messages))).text).toBe("All done.");
    messages.push({ role: "user", content: "plan b" });
    expect((await again.complete(request(messages))).text).toBe("Planning plan b");
  });

  it("streams text in chunks when a step has a delay, and stops when aborted", async () => {
    const streamed = parseScenario(
      "turns:\n  - steps:\n      - say: one two three four five six seven\n        delayMs: 1\n",
      "s.yaml",
    );
    const chunks: string[] = [];
    const slow = new ScriptedProvider("scripted/s", streamed);
    const response = await slow.complete(
      request([{ role: "user", content: "x" }], (t) => chunks.push(t)),
    );
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(response.text);

    const controller = new AbortController();
    const pending = slow.complete({
      ...request([{ role: "user", content: "x" }]),
      signal: controller.signal,
    });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });

  it("[R12] matches a 100,000-character message against a backtracking pattern in linear time", async () => {
    const nested = parseScenario(
      'turns:\n  - match: "^(a+)+$"\n    steps: [{ say: nested }]\n  - steps: [{ say: fallback }]\n',
      "nested.yaml",
    );
    // A backtracking engine would not finish before the test's time limit.
    const response = await new ScriptedProvider("scripted/nested", nested).complete(
      request([{ role: "user", content: `${"a".repeat(100_000)}!` }]),
    );
    expect(response.text).toBe("fallback");
  });

  it("[R12] refuses a scenario whose pattern needs backtracking (a backreference)", () => {
    expect(() =>
      parseScenario('turns:\n  - match: "(a)\\\\1"\n    steps: [{ say: x }]\n', "backref.yaml"),
    ).toThrow(/at turns.0.match: not a valid regular expression/);
  });

  it("says so when no turn matches", async () => {
    const strict = parseScenario('turns:\n  - match: "^x$"\n    steps: [{ say: hi }]\n', "m.yaml");
    const response = await new ScriptedProvider("scripted/m", strict).complete(
      request([{ role: "user", content: "y" }]),
    );
    expect(response.text).toMatch(/no reply scripted/);
  });
});

describe("scenario files", () => {
  it("name the file and the bad path when a scenario is invalid", () => {
    const bad = `turns:\n  - steps:\n      - tools:\n          - input: {}\n  - match: "("\n    steps: [{ say: x }]\n`;
    let error: unknown;
    try {
      parseScenario(bad, "/tmp/bad.yaml");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ModelError);
    const message = (error as Error).message;
    expect(message).toContain("/tmp/bad.yaml");
    expect(message).toContain("at turns.0.steps.0.tools.0.name");
    expect(message).toContain("at turns.1.match: not a valid regular expression");
  });

  it("report YAML syntax errors and missing files with the file name", () => {
    expect(() => parseScenario("turns: [", "broken.yaml")).toThrow(
      /broken\.yaml is not valid YAML/,
    );
    expect(() => loadScenario("/nonexistent/x.yaml")).toThrow(
      /Cannot read scenario \/nonexistent\/x\.yaml/,
    );
    expect(() => parseScenario("turns: []", "empty.yaml")).toThrow(/at turns:/);
  });

  it("[W2] end a turn with a coded notice naming only the file, its problems kept for the operator", () => {
    const noticeOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        if (error instanceof ModelError) return error.notice;
      }
      return undefined;
    };
    expect(noticeOf(() => loadScenario("/nonexistent/x.yaml"))).toEqual({
      code: "model.scenarioUnreadable",
      params: { scenario: "x.yaml" },
    });
    expect(noticeOf(() => parseScenario("turns: [", "/srv/s/broken.yaml"))).toEqual({
      code: "model.scenarioInvalid",
      params: { scenario: "broken.yaml" },
    });
    expect(noticeOf(() => parseScenario("turns: []", "/srv/s/empty.yaml"))).toEqual({
      code: "model.scenarioInvalid",
      params: { scenario: "empty.yaml" },
    });
  });

  it("resolve scripted:demo, scripted/demo and scripted:<path>", () => {
    expect(bundledScenarios()).toContain("demo");
    expect(parseScriptedRef("scripted:demo")?.ref).toBe("scripted/demo");
    expect(parseScriptedRef("scripted/demo")?.ref).toBe("scripted/demo");
    expect(parseScriptedRef("scripted:e2e/x.yaml", "/repo")).toMatchObject({
      ref: "scripted//repo/e2e/x.yaml",
      file: "/repo/e2e/x.yaml",
    });
    expect(parseScriptedRef("openai/gpt-5")).toBeUndefined();
  });

  it("load the bundled demo and a scenario file", async () => {
    const demo = createScriptedProvider("scripted:demo");
    const first = await demo.complete(request([{ role: "user", content: "what is here?" }]));
    expect(first.toolCalls.map((c) => c.name)).toEqual(["Glob"]);
    const dir = tempDir();
    try {
      const file = join(dir.path, "mine.json");
      writeFileSync(file, JSON.stringify({ turns: [{ steps: [{ say: "json works" }] }] }));
      const mine = createScriptedProvider(`scripted:${file}`);
      expect((await mine.complete(request([{ role: "user", content: "x" }]))).text).toBe(
        "json works",
      );
    } finally {
      dir.remove();
    }
  });

  it("[P6] runtime notes (plan and todo reminders) neither pick the turn nor restart its steps", async () => {
    const reply = await new ScriptedProvider("scripted/test", scenario).complete(
      request([
        { role: "user", content: "notes" },
        { role: "user", content: "<system-reminder>\nPlan mode is on.\n</system-reminder>" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "Read", input: {} }] },
        { role: "tool", toolCallId: "c1", name: "Read", content: "# Notes", isError: false },
        { role: "user", content: "[Todo reminder] The todo list has not been touched." },
      ]),
    );
    expect(reply.text).toBe("Got: # Notes");
  });
});

describe("[V7] scripted reactions", () => {
  const reacting = new ScriptedProvider(
    "scripted/test",
    parseScenario(
      `
turns:
  - steps:
      - say: "Submitting"
        tools: [{ name: ExitPlanMode, input: { plan: "# P" } }]
      - say: "Approved, carrying on"
    reactions:
      - result: "has a question about your plan"
        say: "Answer"
        tools: [{ name: ExitPlanMode, input: { plan: "# P" } }]
`,
      "reacting.yaml",
    ),
  );
  const reply = { role: "assistant", content: "", toolCalls: [] } as ModelMessage;
  const result = (content: string): ModelMessage => ({
    role: "tool",
    toolCallId: "c",
    name: "ExitPlanMode",
    content,
    isError: false,
  });
  const QUESTION = result("The user has a question about your plan. …");

  it("plays a reaction whenever the last results match, any number of times, without using up the turn's steps", async () => {
    const start: ModelMessage[] = [{ role: "user", content: "do it" }, reply, QUESTION];
    expect((await reacting.complete(request(start))).text).toBe("Answer");
    const twice = [...start, reply, QUESTION];
    expect((await reacting.complete(request(twice))).text).toBe("Answer");
    const approved = [...twice, reply, result("The user approved your plan.")];
    expect((await reacting.complete(request(approved))).text).toBe("Approved, carrying on");
  });

  describe("what the latest Glob found", () => {
    const found = new ScriptedProvider(
      "scripted/found",
      parseScenario(
        `
turns:
  - steps:
      - say: Looking.
        tools:
          - name: Glob
            input: { pattern: "*" }
      - ifFound: README.md
        tools:
          - name: Read
            input: { path: README.md }
          - name: Read
            ifFound: package.json
            input: { path: package.json }
      - unlessFound: [README.md, package.json]
        say: Nothing to read.
        tools:
          - name: Grep
            input: { pattern: TODO }
      - say:
          - "Read:"
          - { ifFound: README.md, text: " README.md" }
          - { unlessFound: README.md, text: " nothing" }
`,
        "found.yaml",
      ),
    );
    const glob = (content: string, isError = false): ModelMessage[] => [
      { role: "user", content: "look" },
      { role: "assistant", content: "Looking.", toolCalls: [] },
      { role: "tool", toolCallId: "g", name: "Glob", content, isError },
    ];

    it("[M1] a step or a call that needs a file is played only when Glob listed it", async () => {
      const both = await found.complete(request(glob("README.md\npackage.json")));
      expect(both.toolCalls.map((c) => c.input)).toEqual([
        { path: "README.md" },
        { path: "package.json" },
      ]);
      const readme = await found.complete(request(glob("README.md\nmain.py")));
      expect(readme.toolCalls.map((c) => c.input)).toEqual([{ path: "README.md" }]);
      const none = await found.complete(request(glob("No files match *.")));
      expect(none).toMatchObject({ text: "Nothing to read.", toolCalls: [{ name: "Grep" }] });
      // A Glob that failed found nothing: the script reads nothing on its word.
      const failed = await found.complete(request(glob("README.md", true)));
      expect(failed.text).toBe("Nothing to read.");
    });

    it("[M1] the steps passed over stay passed over, and the words say only what was found", async () => {
      const afterRead: ModelMessage[] = [
        ...glob("README.md"),
        { role: "assistant", content: "", toolCalls: [] },
        { role: "tool", toolCallId: "r", name: "Read", content: "1\t# Hi", isError: false },
      ];
      expect((await found.complete(request(afterRead))).text).toBe("Read: README.md");
      const afterGrep: ModelMessage[] = [
        ...glob("main.py"),
        { role: "assistant", content: "Nothing to read.", toolCalls: [] },
        { role: "tool", toolCallId: "t", name: "Grep", content: "No lines", isError: false },
      ];
      expect((await found.complete(request(afterGrep))).text).toBe("Read: nothing");
    });
  });
});
