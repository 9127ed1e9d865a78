import en from "../../../locales/en/notices.json";
import zh from "../../../locales/zh-CN/notices.json";
import {
  placeholdersOf,
  SERVER_SAID_ENGLISH,
  TURN_NOTICE_ENGLISH,
  WITH_DETAIL_ENGLISH,
} from "../../shared/turnNotices.ts";
import { TURN_NOTICE_VALUES } from "../../shared/turnNoticeValues.ts";

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

  it("[W2] the page's table of codes names exactly the values each code's wording fills in, in both languages", () => {
    expect(Object.keys(TURN_NOTICE_VALUES).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      const named = [...TURN_NOTICE_VALUES[code]].sort();
      expect(placeholdersOf(TURN_NOTICE_ENGLISH[code]).sort(), code).toEqual(named);
      expect(placeholdersOf(chinese[`turnNotice.${code}`] ?? "").sort(), code).toEqual(named);
    }
  });
});
