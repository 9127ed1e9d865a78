import en from "../../../locales/en/notices.json";
import zh from "../../../locales/zh-CN/notices.json";
import { placeholdersOf } from "../../shared/placeholders.ts";
import {
  SERVER_SAID_ENGLISH,
  TURN_NOTICE_ENGLISH,
  WITH_DETAIL_ENGLISH,
} from "../../shared/turnNotices.ts";

const english: Record<string, string> = en;
const chinese: Record<string, string> = zh;
const codes = Object.keys(TURN_NOTICE_ENGLISH) as (keyof typeof TURN_NOTICE_ENGLISH)[];

describe("turn notice catalog (W2)", () => {
  it("[W2] the English page words every code exactly as the server stores it", () => {
    for (const code of codes) {
      expect(english[`turnNotice.${code}`], code).toBe(TURN_NOTICE_ENGLISH[code]);
    }
    expect(english["turnNotice.withDetail"]).toBe(WITH_DETAIL_ENGLISH);
    expect(english["turnNotice.serverSaid"]).toBe(SERVER_SAID_ENGLISH);
  });

  it("[W2] every code is worded in Chinese, and only codes the server knows are", () => {
    for (const code of codes)
      expect(chinese[`turnNotice.${code}`], code).toMatch(/\p{Script=Han}/u);
    const worded = Object.keys(english).filter((key) => key.startsWith("turnNotice."));
    expect(worded.sort()).toEqual(
      [
        "turnNotice.withDetail",
        "turnNotice.serverSaid",
        ...codes.map((code) => `turnNotice.${code}`),
      ].sort(),
    );
  });

  it("[W2] the Chinese wording of each code fills in exactly the values the server's names", () => {
    for (const code of codes) {
      const named = placeholdersOf(TURN_NOTICE_ENGLISH[code]).sort();
      expect(placeholdersOf(chinese[`turnNotice.${code}`] ?? "").sort(), code).toEqual(named);
    }
  });
});
