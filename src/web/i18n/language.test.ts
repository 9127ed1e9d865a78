import { describe, expect, it } from "vitest";
import { detectLanguage } from "./language.ts";

describe("detectLanguage", () => {
  it("[W2] picks zh-CN for any Chinese browser language and English otherwise", () => {
    expect(detectLanguage(["zh-TW", "en"], null)).toBe("zh-CN");
    expect(detectLanguage(["zh"], null)).toBe("zh-CN");
    expect(detectLanguage(["fr-FR", "en-GB"], null)).toBe("en");
    expect(detectLanguage(["de"], null)).toBe("en");
    expect(detectLanguage([], null)).toBe("en");
  });

  it("[W2] lets a saved choice win over the browser", () => {
    expect(detectLanguage(["zh-CN"], "en")).toBe("en");
    expect(detectLanguage(["en"], "zh-CN")).toBe("zh-CN");
    expect(detectLanguage(["en"], "klingon")).toBe("en");
  });
});
