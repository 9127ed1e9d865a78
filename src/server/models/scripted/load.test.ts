import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../testing/helpers.ts";
import type { ModelRequest } from "../provider.ts";
import { createScriptedProvider } from "./load.ts";
import { loadScenario } from "./scenario.ts";

// Counts the reads of scenario files; each still reads and checks the file for real.
vi.mock("./scenario.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("./scenario.ts")>();
  return { ...original, loadScenario: vi.fn(original.loadScenario) };
});

const request = (content: string): ModelRequest => ({
  system: "",
  messages: [{ role: "user", content }],
  tools: [],
  signal: new AbortController().signal,
});

describe("[M1] when a scripted model reads its scenario", () => {
  beforeEach(() => {
    vi.mocked(loadScenario).mockClear();
  });

  it("reads a bundled scenario on its first call, once, so a start does not parse it", async () => {
    const demo = createScriptedProvider("scripted:demo");
    expect(loadScenario).not.toHaveBeenCalled();
    const first = await demo.complete(request("what is here?"));
    expect(first.toolCalls.map((c) => c.name)).toEqual(["Glob"]);
    await demo.complete(request("what is here?"));
    expect(loadScenario).toHaveBeenCalledTimes(1);
  });

  it("reads a scenario file at once, so a broken one stops the start with its own message", () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, "broken.yaml");
      writeFileSync(file, "turns: []\n");
      expect(() => createScriptedProvider(`scripted:${file}`)).toThrow(/broken\.yaml is invalid/);
      expect(loadScenario).toHaveBeenCalledTimes(1);
    } finally {
      dir.remove();
    }
  });
});
