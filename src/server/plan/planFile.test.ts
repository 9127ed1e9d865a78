import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../testing/helpers.ts";
import {
  PLAN_FILE_REFERENCE_MAX_BYTES,
  planFileName,
  planFilePath,
  readPlanFileExcerpt,
  writePlanFile,
} from "./planFile.ts";

describe("plan files (P8, P11)", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.remove());

  it("[P8] names the file after the session, special characters replaced by -", () => {
    expect(planFileName("sess_abc-123")).toBe("plan-sess_abc-123.md");
    expect(planFileName("sess/../x:y z*?")).toBe("plan-sess----x-y-z--.md");
    expect(planFilePath("/ws", "a/b")).toBe(join("/ws", ".zcode", "plans", "plan-a-b.md"));
  });

  it("[P8] writes atomically, creating the directories, and replaces an older plan whole", async () => {
    const path = await writePlanFile(dir.path, "sess/1", "# Plan\n\nfirst");
    expect(path).toBe(join(".zcode", "plans", "plan-sess-1.md"));
    const file = join(dir.path, path);
    expect(readFileSync(file, "utf8")).toBe("# Plan\n\nfirst");
    await writePlanFile(dir.path, "sess/1", "# Plan\n\nsecond");
    expect(readFileSync(file, "utf8")).toBe("# Plan\n\nsecond");
    expect(readdirSync(join(dir.path, ".zcode", "plans"))).toEqual(["plan-sess-1.md"]);
  });

  it("[P8] a cancelled write leaves no file and no temp file behind", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(writePlanFile(dir.path, "s", "plan", controller.signal)).rejects.toThrow();
    expect(existsSync(planFilePath(dir.path, "s"))).toBe(false);
    expect(readdirSync(join(dir.path, ".zcode", "plans"))).toEqual([]);
  });

  it("[P11] reads back at most 81,024 bytes, without a broken character at the cut", async () => {
    expect(PLAN_FILE_REFERENCE_MAX_BYTES).toBe(81_024);
    expect(await readPlanFileExcerpt(dir.path, "none")).toBeUndefined();
    await writePlanFile(dir.path, "small", "short plan");
    expect(await readPlanFileExcerpt(dir.path, "small")).toEqual({
      path: join(".zcode", "plans", "plan-small.md"),
      text: "short plan",
      truncated: false,
    });
    mkdirSync(join(dir.path, ".zcode", "plans"), { recursive: true });
    // 3-byte characters: 81,024 is a multiple of 3, so start one byte in to force a cut mid-character.
    writeFileSync(planFilePath(dir.path, "big"), `x${"计".repeat(40_000)}`);
    const excerpt = await readPlanFileExcerpt(dir.path, "big");
    expect(excerpt?.truncated).toBe(true);
    expect(Buffer.byteLength(excerpt!.text)).toBeLessThanOrEqual(81_024);
    expect(excerpt!.text).toBe(`x${"计".repeat((81_024 - 1 - 2) / 3)}`);
  });
});
