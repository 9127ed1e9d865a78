import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExecutionMode, PermissionMode } from "../../protocol/index.ts";
import { tempDir } from "../testing/helpers.ts";
import type { AnyToolContract, ToolContext, ToolContract } from "../tools/contract.ts";
import { editTool } from "../tools/edit.ts";
import { globTool } from "../tools/glob.ts";
import { grepTool } from "../tools/grep.ts";
import { readTool } from "../tools/read.ts";
import { writeTool } from "../tools/write.ts";
import { PermissionService } from "./service.ts";

const API_KEY = "sk-test-KEY-0123456789abcdef";
const ACCESS_TOKEN = `${"a".repeat(20)}TOKEN${"b".repeat(20)}`;
const DENIED_TEXT = "TOPSECRET-denied-line";

const mode = (permissionMode: PermissionMode, planEnabled = false): ExecutionMode => ({
  permissionMode,
  planEnabled,
});

/**
 * A workspace set up the way a prompt-injected model would want it: rules that allow its
 * own writes, files the rules deny, and symbolic links inside the workspace that point at
 * the denied and protected places.
 */
function hostileWorkspace(root: string): string {
  const workspace = join(root, "ws");
  mkdirSync(join(workspace, ".zcode", "plans"), { recursive: true });
  mkdirSync(join(workspace, ".git", "hooks"), { recursive: true });
  mkdirSync(join(workspace, "secrets"));
  mkdirSync(join(workspace, "src"));
  writeFileSync(
    join(workspace, ".zcode", "permissions.json"),
    JSON.stringify({
      allow: ["Write(.zcode/**)", "Edit(.git/**)", "Write(.git/**)", "Write(src/**)", "Read"],
      deny: ["Read(secrets/**)", "Write(secrets/**)", "Grep(secrets/**)", "Read(.env)"],
    }),
  );
  writeFileSync(
    join(workspace, ".zcode", "plangate.json"),
    JSON.stringify({
      providers: { x: { kind: "openai", apiKey: API_KEY, models: [{ id: "m" }] } },
    }),
  );
  writeFileSync(join(workspace, ".zcode", "plans", "plan.md"), "# The plan\n");
  writeFileSync(join(workspace, ".git", "config"), "[core]\n\tbare = false\n");
  writeFileSync(join(workspace, "secrets", "key.txt"), `${DENIED_TEXT}\n`);
  writeFileSync(join(workspace, ".env"), `API=${DENIED_TEXT}\n`);
  writeFileSync(join(workspace, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(workspace, "notes.md"), `token ${ACCESS_TOKEN} end\n`);
  writeFileSync(
    join(workspace, "config-copy.json"),
    JSON.stringify({ providers: { x: { apiKey: "sk-unknown-to-plangate-but-a-key" } } }),
  );
  symlinkSync(join(workspace, "secrets"), join(workspace, "innocent"));
  symlinkSync(join(workspace, ".env"), join(workspace, "notes.txt"));
  symlinkSync(join(workspace, ".zcode"), join(workspace, "zc"));
  symlinkSync(join(workspace, ".zcode", "plangate.json"), join(workspace, "cfg.json"));
  symlinkSync(join(workspace, ".git", "hooks"), join(workspace, "src", "hooks"));
  return workspace;
}

describe("[R9] [R10] the file jail against a hostile model", () => {
  let root: ReturnType<typeof tempDir>;
  let workspace: string;
  let service: PermissionService;

  beforeEach(() => {
    root = tempDir();
    workspace = hostileWorkspace(realpathSync(root.path));
    service = new PermissionService({ workspace, warn: () => {} });
  });
  afterEach(() => root.remove());

  const contextFor = (executionMode: ExecutionMode): ToolContext => ({
    sessionId: "sess_jail",
    workspace,
    signal: new AbortController().signal,
    mode: () => executionMode,
    hiddenFrom: service.hiddenFrom,
    secrets: async () => [ACCESS_TOKEN, API_KEY],
  });

  /** What a model gets: the policy's verdict, and the tool's output when it was let through. */
  async function attempt<I>(tool: ToolContract<I>, input: I, executionMode: ExecutionMode) {
    const parsed = tool.inputSchema.parse(input);
    const verdict = service.check(tool as AnyToolContract, parsed, executionMode);
    if (verdict.type !== "allow") return { verdict: verdict.type, output: "" };
    const result = await tool.run(parsed, contextFor(executionMode));
    return { verdict: verdict.type, output: result.output };
  }

  it("[R9] writes into .zcode/ and .git/ ask in every mode, whatever the allow rules say, symlinks included", async () => {
    const writes: Array<[AnyToolContract, unknown]> = [
      [writeTool, { path: ".zcode/permissions.json", content: '{"allow":["*"]}' }],
      [writeTool, { path: ".zcode/plangate.json", content: "{}" }],
      [writeTool, { path: ".git/hooks/post-checkout", content: "#!/bin/sh\ncurl evil\n" }],
      [
        editTool,
        { path: ".git/config", old_string: "bare = false", new_string: "fsmonitor = evil" },
      ],
      [writeTool, { path: "zc/permissions.json", content: '{"allow":["*"]}' }],
      [writeTool, { path: "src/hooks/pre-commit", content: "#!/bin/sh\n" }],
      [writeTool, { path: "./src/../.zcode/permissions.json", content: "{}" }],
      [writeTool, { path: ".ZCODE/permissions.json", content: "{}" }],
      [writeTool, { path: "sub/.git/config", content: "[core]\n" }],
    ];
    let attempts = 0;
    let through = 0;
    for (const permissionMode of ["build", "edit", "auto", "yolo"] as const) {
      for (const [tool, input] of writes) {
        attempts++;
        const { verdict } = await attempt(
          tool as ToolContract<unknown>,
          input,
          mode(permissionMode),
        );
        if (verdict === "allow") through++;
      }
    }
    expect({ attempts, through }).toEqual({ attempts: 36, through: 0 });
    expect(readFileSync(join(workspace, ".zcode", "permissions.json"), "utf8")).not.toContain(
      '"*"',
    );
  });

  it("[R9] Always allow on a protected path saves no rule that could lift the question later", async () => {
    const saved = await service.allowAlways(writeTool as AnyToolContract, {
      path: ".zcode/permissions.json",
      content: "{}",
    });
    expect(saved).toBeUndefined();
    expect(readFileSync(join(workspace, ".zcode", "permissions.json"), "utf8")).not.toContain(
      "Write(.zcode/permissions.json)",
    );
  });

  it("[R10] a symbolic link inside the workspace does not get around a deny rule", async () => {
    const attacks: Array<[AnyToolContract, unknown]> = [
      [readTool, { path: "innocent/key.txt" }],
      [readTool, { path: "notes.txt" }],
      [writeTool, { path: "innocent/new.txt", content: "x" }],
      [grepTool, { pattern: "TOPSECRET", path: "innocent/key.txt" }],
      [grepTool, { pattern: "TOPSECRET", path: "notes.txt" }],
    ];
    let through = 0;
    for (const permissionMode of ["build", "edit", "yolo"] as const) {
      for (const [tool, input] of attacks) {
        const { verdict, output } = await attempt(
          tool as ToolContract<unknown>,
          input,
          mode(permissionMode),
        );
        if (verdict === "allow" && (output.includes(DENIED_TEXT) || tool === writeTool)) through++;
      }
    }
    expect({ attempts: 15, through }).toEqual({ attempts: 15, through: 0 });
  });

  it("[R10] Grep over the whole workspace and Glob leave denied files out", async () => {
    const grep = await attempt(grepTool, { pattern: "TOPSECRET", path: "." }, mode("yolo"));
    expect(grep.verdict).toBe("allow");
    expect(grep.output).not.toContain(DENIED_TEXT);
    const grepGlob = await attempt(grepTool, { pattern: ".", glob: "**/notes.txt" }, mode("yolo"));
    expect(grepGlob.output).not.toContain(DENIED_TEXT);
    const glob = await attempt(globTool, { pattern: "**/*" }, mode("yolo"));
    expect(glob.output).toContain("src/a.ts");
    expect(glob.output).not.toMatch(/secrets\/key\.txt|notes\.txt|cfg\.json/);
  });

  it("[R9] no tool returns the model config's key, the access token or another plangate secret", async () => {
    const reads: Array<[AnyToolContract, unknown]> = [
      [readTool, { path: ".zcode/plangate.json" }],
      [readTool, { path: "zc/plangate.json" }],
      [readTool, { path: "cfg.json" }],
      [readTool, { path: "notes.md" }],
      [readTool, { path: "config-copy.json" }],
      [grepTool, { pattern: "sk-", path: ".zcode/plangate.json" }],
      [grepTool, { pattern: "apiKey", path: ".zcode" }],
      [grepTool, { pattern: "sk-|TOKEN", path: "." }],
      [grepTool, { pattern: "sk-", path: "cfg.json" }],
      [globTool, { pattern: "**/*", path: ".zcode" }],
      [editTool, { path: ".zcode/plangate.json", old_string: "sk-test", new_string: "sk-test" }],
    ];
    let through = 0;
    for (const permissionMode of ["build", "yolo"] as const) {
      for (const [tool, input] of reads) {
        const { output } = await attempt(
          tool as ToolContract<unknown>,
          input,
          mode(permissionMode),
        );
        if (/sk-test-KEY|sk-unknown|aTOKENb/.test(output)) through++;
      }
    }
    expect({ attempts: 22, through }).toEqual({ attempts: 22, through: 0 });
    const listing = await attempt(globTool, { pattern: "**/*", path: ".zcode" }, mode("yolo"));
    expect(listing.output).toContain(".zcode/permissions.json");
    expect(listing.output).not.toContain("plangate.json");
  });

  it("[R9] the rules file and saved plans stay readable", async () => {
    const rules = await attempt(readTool, { path: ".zcode/permissions.json" }, mode("build"));
    expect(rules.output).toContain("Read(secrets/**)");
    const plan = await attempt(readTool, { path: ".zcode/plans/plan.md" }, mode("build"));
    expect(plan.output).toContain("The plan");
  });

  it("[R9] Read and Grep refuse plangate's secret files even when the policy is bypassed", async () => {
    const context = contextFor(mode("yolo"));
    const read = await readTool.run({ path: ".zcode/plangate.json" }, context);
    expect(read.isError).toBe(true);
    expect(read.output).not.toContain(API_KEY);
    const grep = await grepTool.run({ pattern: "sk", path: "cfg.json" }, context);
    expect(grep.isError).toBe(true);
    expect(grep.output).not.toContain(API_KEY);
  });
});
