import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { tempDir } from "../testing/helpers.ts";
import type { ToolContext } from "./contract.ts";
import { WorkspacePathError } from "./workspacePath.ts";
import { writeTool } from "./write.ts";

describe("Write tool", () => {
  let root: ReturnType<typeof tempDir>;
  let workspace: string;
  let outside: string;
  let context: ToolContext;

  beforeEach(() => {
    root = tempDir();
    workspace = join(realpathSync(root.path), "ws");
    outside = join(realpathSync(root.path), "outside");
    mkdirSync(workspace);
    mkdirSync(outside);
    symlinkSync(outside, join(workspace, "link-out"));
    context = {
      sessionId: "sess_t",
      workspace,
      signal: new AbortController().signal,
      mode: () => ({ permissionMode: "build", planEnabled: false }),
    };
  });
  afterEach(() => root.remove());

  const write = (path: string, content: string) => writeTool.run({ path, content }, context);

  it("declares itself a change that is not destructive, summarised by its path", () => {
    expect(writeTool.readOnly).toBe(false);
    expect(writeTool.destructive).toBe(false);
    expect(writeTool.allowedInPlanMode).toBeUndefined();
    expect(writeTool.summarize?.({ path: "a/b.md", content: "x" })).toBe("a/b.md");
  });

  it("creates a file and its folders", async () => {
    expect(await write("notes/deep/today.md", "# Today\n\n- one\n")).toEqual({
      output: "Created notes/deep/today.md (3 lines).",
    });
    expect(readFileSync(join(workspace, "notes", "deep", "today.md"), "utf8")).toBe(
      "# Today\n\n- one\n",
    );
  });

  it("replaces an existing file whole, keeping its permissions and leaving no temp file", async () => {
    writeFileSync(join(workspace, "run.sh"), "old\nold\nold\n");
    chmodSync(join(workspace, "run.sh"), 0o755);
    expect(await write("run.sh", "new")).toEqual({
      output: "Replaced the content of run.sh (1 line).",
    });
    expect(readFileSync(join(workspace, "run.sh"), "utf8")).toBe("new");
    expect(statSync(join(workspace, "run.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(workspace).sort()).toEqual(["link-out", "run.sh"]);
  });

  it("refuses a directory", async () => {
    mkdirSync(join(workspace, "src"));
    expect(await write("src", "x")).toMatchObject({
      isError: true,
      output: "src is a directory; give the path of a file.",
    });
  });

  it("[R4] stays inside the workspace", async () => {
    await expect(write("../escape.txt", "x")).rejects.toThrow(WorkspacePathError);
    await expect(write(join(outside, "abs.txt"), "x")).rejects.toThrow(WorkspacePathError);
    await expect(write("link-out/new.txt", "x")).rejects.toThrow(WorkspacePathError);
    expect(readdirSync(outside)).toEqual([]);
  });
});
