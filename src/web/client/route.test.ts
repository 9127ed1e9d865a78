import { describe, expect, it } from "vitest";
import { formatHash, parseHash } from "./route.ts";

describe("hash routes", () => {
  it("[W1] round-trips a session id through the hash", () => {
    const hash = formatHash("session", "sess_a/b c");
    expect(parseHash(hash)).toEqual({ page: "session", sessionId: "sess_a/b c" });
  });

  it("reads the settings page and falls back to no selection", () => {
    expect(parseHash("#/settings")).toEqual({ page: "settings" });
    expect(parseHash("")).toEqual({ page: "session", sessionId: null });
    expect(parseHash("#/s/%E0%A4%A")).toEqual({ page: "session", sessionId: null });
    expect(formatHash("settings", "x")).toBe("#/settings");
    expect(formatHash("session", null)).toBe("#/");
  });
});
