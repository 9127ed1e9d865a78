import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../testing/helpers.ts";
import type { ToolContext, ToolContract } from "./contract.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { readTool } from "./read.ts";
import { ToolRegistry } from "./registry.ts";
import { resolveInWorkspace, WorkspacePathError } from "./workspacePath.ts";

describe("file tools", () => {
  let root: ReturnType<typeof tempDir>;
  let workspace: string;
  let outside: string;
  let context: ToolContext;

  beforeEach(() => {
    root = tempDir();
    workspace = join(realpathSync(root.path), "ws");
    outside = join(realpathSync(root.path), "outside");
    mkdirSync(join(workspace, "src", "deep"), { recursive: true });
    mkdirSync(join(workspace, "node_modules", "pkg"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(workspace, "README.md"), "# Title\n\nhello world\nHello again\n");
    writeFileSync(join(workspace, "src", "a.ts"), "export const a = 1;\n// TODO: more\n");
    writeFileSync(join(workspace, "src", "deep", "b.ts"), "export const b = 2;\n");
    writeFileSync(join(workspace, "node_modules", "pkg", "index.js"), "// TODO hidden\n");
    writeFileSync(join(workspace, "blob.bin"), Buffer.from([1, 2, 0, 3, 84, 79, 68, 79]));
    writeFileSync(join(outside, "secret.txt"), "TODO secret\n");
    symlinkSync(outside, join(workspace, "link-out"));
    symlinkSync(join(outside, "secret.txt"), join(workspace, "secret-link.txt"));
    symlinkSync(join(workspace, "src", "a.ts"), join(workspace, "a-link.ts"));
    context = {
      sessionId: "sess_t",
      workspace,
      signal: new AbortController().signal,
      mode: () => ({ permissionMode: "build", planEnabled: false }),
    };
  });
  afterEach(() => root.remove());

  const run = <I>(tool: ToolContract<I>, input: I) =>
    tool.run(tool.inputSchema.parse(input), context);

  it("[R4] refuses .. escapes, foreign absolute paths and symlinks that lead out", async () => {
    await expect(resolveInWorkspace(workspace, "../outside/secret.txt")).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(resolveInWorkspace(workspace, join(outside, "secret.txt"))).rejects.toThrow(
      WorkspacePathError,
    );
    await expect(resolveInWorkspace(workspace, "link-out/secret.txt")).rejects.toThrow(
      /symbolic link/,
    );
    await expect(resolveInWorkspace(workspace, "link-out/not-yet.txt")).rejects.toThrow(
      /symbolic link/,
    );
    await expect(resolveInWorkspace(workspace, "secret-link.txt")).rejects.toThrow(/symbolic link/);
    expect(await resolveInWorkspace(workspace, join(workspace, "src"))).toBe(
      join(workspace, "src"),
    );
    expect(await resolveInWorkspace(workspace, "a-link.ts")).toBe(join(workspace, "a-link.ts"));
    expect(await resolveInWorkspace(workspace, "src/../README.md")).toBe(
      join(workspace, "README.md"),
    );
  });

  it("[R4] Read refuses a symlink pointing outside and reads one pointing inside", async () => {
    await expect(run(readTool, { path: "secret-link.txt" })).rejects.toThrow(WorkspacePathError);
    const inside = await run(readTool, { path: "a-link.ts" });
    expect(inside.output).toContain("export const a = 1;");
  });

  it("Read numbers lines and pages with offset and limit", async () => {
    const whole = await run(readTool, { path: "README.md" });
    expect(whole.isError).toBeUndefined();
    expect(whole.output).toBe("1\t# Title\n2\t\n3\thello world\n4\tHello again\n");
    const page = await run(readTool, { path: "README.md", offset: 2, limit: 2 });
    expect(page.output).toContain("2\t\n3\thello world\n");
    expect(page.output).toContain("lines 2–3 of 4; continue with offset 4");
  });

  it("Read explains missing files, folders, binaries and offsets past the end", async () => {
    expect(await run(readTool, { path: "nope.md" })).toMatchObject({
      isError: true,
      output: "There is no file at nope.md.",
    });
    expect((await run(readTool, { path: "src" })).output).toMatch(/directory/);
    expect((await run(readTool, { path: "blob.bin" })).output).toMatch(/binary/);
    expect((await run(readTool, { path: "README.md", offset: 9 })).output).toMatch(/only 4 lines/);
  });

  it("[R4] Glob lists matches inside the workspace only, skipping node_modules", async () => {
    const result = await run(globTool, { pattern: "**/*" });
    const files = result.output.split("\n");
    expect(files).toContain("src/a.ts");
    expect(files).toContain("src/deep/b.ts");
    expect(files).not.toContain("secret-link.txt");
    expect(result.output).not.toMatch(/node_modules|secret\.txt/);
    expect((await run(globTool, { pattern: "*.ts", path: "src" })).output).toBe("src/a.ts");
    expect((await run(globTool, { pattern: "../*" })).isError).toBe(true);
    await expect(run(globTool, { pattern: "*", path: "link-out" })).rejects.toThrow(
      /symbolic link/,
    );
    expect((await run(globTool, { pattern: "*.xyz" })).output).toMatch(/No files match/);
  });

  it("[R4] Grep finds lines in text files inside the workspace only", async () => {
    const result = await run(grepTool, { pattern: "TODO" });
    expect(result.output).toBe("src/a.ts:2: // TODO: more");
    const insensitive = await run(grepTool, {
      pattern: "^hello",
      caseInsensitive: true,
      path: "README.md",
    });
    expect(insensitive.output).toBe("README.md:3: hello world\nREADME.md:4: Hello again");
    const filtered = await run(grepTool, { pattern: "export", glob: "**/deep/*.ts" });
    expect(filtered.output).toBe("src/deep/b.ts:1: export const b = 2;");
    const capped = await run(grepTool, { pattern: "export", maxMatches: 1 });
    expect(capped.output).toMatch(/stopped after 1 matches/);
    expect(await run(grepTool, { pattern: "(" })).toMatchObject({ isError: true });
  });

  it("offers every tool to the model with a JSON schema of its input", () => {
    const registry = new ToolRegistry([readTool, globTool, grepTool]);
    const spec = registry.specs().find((s) => s.name === "Read")!;
    expect(spec.inputSchema).toMatchObject({
      type: "object",
      required: ["path"],
      properties: { path: { type: "string" }, offset: { type: "integer" } },
    });
    expect(() => registry.register(readTool)).toThrow(/already registered/);
  });
});
