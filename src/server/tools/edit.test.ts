import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../testing/helpers.ts";
import type { ToolContext } from "./contract.ts";
import { editTool } from "./edit.ts";
import { WorkspacePathError } from "./workspacePath.ts";

describe("Edit tool", () => {
  let root: ReturnType<typeof tempDir>;
  let workspace: string;
  let context: ToolContext;
  const file = () => join(workspace, "src", "a.ts");

  beforeEach(() => {
    root = tempDir();
    workspace = join(realpathSync(root.path), "ws");
    mkdirSync(join(workspace, "src"), { recursive: true });
    mkdirSync(join(realpathSync(root.path), "outside"));
    writeFileSync(join(realpathSync(root.path), "outside", "x.ts"), "const a = 1;\n");
    symlinkSync(join(realpathSync(root.path), "outside"), join(workspace, "link-out"));
    writeFileSync(file(), "const a = 1;\nconst b = 1;\nlet price = '$1';\n");
    context = {
      sessionId: "sess_t",
      workspace,
      signal: new AbortController().signal,
      mode: () => ({ permissionMode: "build", planEnabled: false }),
    };
  });
  afterEach(() => root.remove());

  const edit = (
    old_string: string,
    new_string: string,
    extra: { replace_all?: boolean; path?: string } = {},
  ) => editTool.run({ path: extra.path ?? "src/a.ts", old_string, new_string, ...extra }, context);

  it("declares itself a change that is not destructive, summarised by its path", () => {
    expect(editTool.readOnly).toBe(false);
    expect(editTool.destructive).toBe(false);
    expect(editTool.summarize?.({ path: "src/a.ts", old_string: "a", new_string: "b" })).toBe(
      "src/a.ts",
    );
  });

  it("replaces exactly one occurrence", async () => {
    expect(await edit("const a = 1;", "const a = 2;")).toEqual({
      output: "Edited src/a.ts: replaced 1 occurrence.",
    });
    expect(readFileSync(file(), "utf8")).toBe("const a = 2;\nconst b = 1;\nlet price = '$1';\n");
  });

  it("takes replacement text literally, $ patterns included", async () => {
    await edit("'$1'", "'$&$$'");
    expect(readFileSync(file(), "utf8")).toContain("let price = '$&$$';");
  });

  it("says clearly when the text is missing or not unique, and changes nothing", async () => {
    const missing = await edit("const c = 1;", "x");
    expect(missing).toMatchObject({ isError: true });
    expect(missing.output).toMatch(/old_string was not found in src\/a\.ts.*copy the text exactly/);
    const twice = await edit(" = 1;", " = 3;");
    expect(twice).toMatchObject({ isError: true });
    expect(twice.output).toMatch(/occurs 2 times in src\/a\.ts.*replace_all/);
    expect(await edit("a", "a")).toMatchObject({
      isError: true,
      output: expect.stringMatching(/the same/),
    });
    expect(readFileSync(file(), "utf8")).toBe("const a = 1;\nconst b = 1;\nlet price = '$1';\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    expect(await edit(" = 1;", " = 3;", { replace_all: true })).toEqual({
      output: "Edited src/a.ts: replaced 2 occurrences.",
    });
    expect(readFileSync(file(), "utf8")).toBe("const a = 3;\nconst b = 3;\nlet price = '$1';\n");
  });

  it("points to Write for a file that does not exist, and refuses binary files", async () => {
    expect(await edit("a", "b", { path: "new.ts" })).toMatchObject({
      isError: true,
      output: "There is no file at new.ts. Use Write to create it.",
    });
    writeFileSync(join(workspace, "blob.bin"), Buffer.from([97, 0, 98]));
    expect(await edit("a", "b", { path: "blob.bin" })).toMatchObject({ isError: true });
  });

  it("[R4] stays inside the workspace", async () => {
    await expect(edit("a", "b", { path: "../outside/x.ts" })).rejects.toThrow(WorkspacePathError);
    await expect(edit("a", "b", { path: "link-out/x.ts" })).rejects.toThrow(WorkspacePathError);
  });
});
