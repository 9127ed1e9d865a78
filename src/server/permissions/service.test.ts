import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { ExecutionMode } from "../../protocol/index.ts";
import { tempDir } from "../testing/helpers.ts";
import type { ToolContract } from "../tools/contract.ts";
import { PROJECT_RULES_FILE } from "./projectRules.ts";
import { PermissionService } from "./service.ts";

const write: ToolContract<unknown> = {
  name: "Write",
  description: "",
  inputSchema: z.unknown(),
  readOnly: false,
  destructive: false,
  run: async () => ({ output: "" }),
};
const bash: ToolContract<unknown> = { ...write, name: "Bash" };
const build: ExecutionMode = { permissionMode: "build", planEnabled: false };

describe("permission service with the project's rules file", () => {
  let dir: ReturnType<typeof tempDir>;
  let rulesPath: string;
  beforeEach(() => {
    dir = tempDir();
    rulesPath = join(dir.path, PROJECT_RULES_FILE);
  });
  afterEach(() => dir.remove());

  const writeRules = (rules: unknown) => {
    mkdirSync(join(dir.path, ".zcode"), { recursive: true });
    writeFileSync(rulesPath, JSON.stringify(rules));
  };

  it("reads .zcode/permissions.json on every decision", () => {
    const service = new PermissionService({ workspace: dir.path });
    expect(service.check(write, { path: "src/a.ts" }, build)).toEqual({ type: "ask" });
    writeRules({ allow: ["Write(src/**)"], deny: ["Bash"] });
    expect(service.check(write, { path: "src/a.ts" }, build)).toEqual({ type: "allow" });
    expect(service.check(write, { path: "lib/a.ts" }, build)).toEqual({ type: "ask" });
    expect(service.check(bash, {}, build)).toMatchObject({ type: "deny" });
  });

  it("sees an edit that keeps the file's size, and a file removed, at the next decision", () => {
    const service = new PermissionService({ workspace: dir.path });
    writeRules({ allow: ["Write(src/**)"] });
    expect(service.check(write, { path: "src/a.ts" }, build)).toEqual({ type: "allow" });
    writeRules({ allow: ["Write(lib/**)"] });
    expect(service.check(write, { path: "src/a.ts" }, build)).toEqual({ type: "ask" });
    expect(service.check(write, { path: "lib/a.ts" }, build)).toEqual({ type: "allow" });
    rmSync(rulesPath);
    expect(service.check(write, { path: "lib/a.ts" }, build)).toEqual({ type: "ask" });
  });

  it("honours disallowed tools from the file and from configuration", () => {
    writeRules({ disallowedTools: ["Bash"] });
    const service = new PermissionService({ workspace: dir.path, disallowedTools: ["Write"] });
    expect(service.check(bash, {}, { permissionMode: "yolo", planEnabled: false })).toMatchObject({
      type: "deny",
    });
    expect(service.check(write, {}, { permissionMode: "yolo", planEnabled: false })).toMatchObject({
      type: "deny",
    });
  });

  it("ignores a broken rules file with a warning instead of stopping every tool", () => {
    writeRules({ allow: "Write" });
    const warnings: string[] = [];
    const service = new PermissionService({ workspace: dir.path, warn: (m) => warnings.push(m) });
    expect(service.check(write, {}, build)).toEqual({ type: "ask" });
    expect(warnings[0]).toMatch(/permissions\.json is invalid at allow/);
  });

  it("'Always allow' saves a rule for the tool and its path, once, keeping the rest of the file", async () => {
    writeRules({ deny: ["Bash"] });
    const service = new PermissionService({ workspace: dir.path });
    expect(await service.allowAlways(write, { path: "./notes/today.md" })).toBe(
      "Write(notes/today.md)",
    );
    await service.allowAlways(write, { path: "notes/today.md" });
    expect(await service.allowAlways(bash, { command: "ls" })).toBe("Bash");
    expect(JSON.parse(readFileSync(rulesPath, "utf8"))).toEqual({
      allow: ["Write(notes/today.md)", "Bash"],
      deny: ["Bash"],
      ask: [],
      disallowedTools: [],
    });
    expect(service.check(write, { path: "notes/today.md" }, build)).toEqual({ type: "allow" });
    expect(service.check(write, { path: "notes/other.md" }, build)).toEqual({ type: "ask" });
  });

  it("creates the rules file when there is none", async () => {
    const service = new PermissionService({ workspace: dir.path });
    await service.allowAlways(write, {});
    expect(JSON.parse(readFileSync(rulesPath, "utf8")).allow).toEqual(["Write"]);
  });
});
