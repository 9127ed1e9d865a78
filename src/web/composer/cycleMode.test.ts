import { MODE_CYCLE, nextModeInCycle } from "./cycleMode.ts";

describe("mode cycling", () => {
  it("[P2] walks plan → build → edit → yolo → plan", () => {
    expect(MODE_CYCLE).toEqual(["plan", "build", "edit", "yolo"]);
    expect(nextModeInCycle("plan")).toBe("build");
    expect(nextModeInCycle("build")).toBe("edit");
    expect(nextModeInCycle("edit")).toBe("yolo");
    expect(nextModeInCycle("yolo")).toBe("plan");
  });

  it("[P2] starts again at plan from a mode outside the cycle", () => {
    expect(nextModeInCycle("auto")).toBe("plan");
    expect(nextModeInCycle(null)).toBe("plan");
  });
});
