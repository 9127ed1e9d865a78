import en from "../../../locales/en/common.json";
import zh from "../../../locales/zh-CN/common.json";
import { TURN_NOTICE_ENGLISH, WITH_DETAIL_ENGLISH } from "../../shared/turnNotices.ts";

const english: Record<string, string> = en;
const chinese: Record<string, string> = zh;
const codes = Object.keys(TURN_NOTICE_ENGLISH) as (keyof typeof TURN_NOTICE_ENGLISH)[];

describe("turn notice catalog (W2)", () => {
  it("[W2] the English page words every code exactly as the server stores it", () => {
    for (const code of codes) {
      expect(english[`turnNotice.${code}`], code).toBe(TURN_NOTICE_ENGLISH[code]);
    }
    expect(english["turnNotice.withDetail"]).toBe(WITH_DETAIL_ENGLISH);
  });

  it("[W2] every code is worded in Chinese, and only codes the server knows are", () => {
    for (const code of codes)
      expect(chinese[`turnNotice.${code}`], code).toMatch(/\p{Script=Han}/u);
    const worded = Object.keys(english).filter((key) => key.startsWith("turnNotice."));
    expect(worded.sort()).toEqual(
      ["turnNotice.withDetail", ...codes.map((code) => `turnNotice.${code}`)].sort(),
    );
  });
});
