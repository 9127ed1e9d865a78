import { summary } from "../store/fixtures.ts";
import { insertMention, matchSessions, mentionAt } from "./sessionCompletion.ts";

describe("#sess_ completion (M4)", () => {
  it("[M4] finds the mention the caret is in", () => {
    expect(mentionAt("see #sess_", 10)).toEqual({ start: 4, end: 10, query: "" });
    expect(mentionAt("#sess_AB", 8)).toEqual({ start: 0, end: 8, query: "ab" });
    expect(mentionAt("see #sess_ab rest", 10)).toEqual({ start: 4, end: 12, query: "" });
    expect(mentionAt("see #sess", 9)).toBeUndefined();
    expect(mentionAt("a#sess_x", 8)).toBeUndefined();
    expect(mentionAt("#sess_x done", 12)).toBeUndefined();
  });

  it("[M4] offers ids that match first, then titles, most recent first, never this session", () => {
    const sessions = [
      summary("sess_abc", { title: "Cache work", updatedAt: 1 }),
      summary("sess_abd", { title: "Docs", updatedAt: 5 }),
      summary("sess_xyz", { title: "The abacus", updatedAt: 9 }),
      summary("sess_now", { title: "abc here", updatedAt: 10 }),
    ];
    expect(matchSessions(sessions, "ab", "sess_now").map((c) => c.id)).toEqual([
      "sess_abd",
      "sess_abc",
      "sess_xyz",
    ]);
    expect(matchSessions(sessions, "", "sess_now").map((c) => c.id)).toEqual([
      "sess_xyz",
      "sess_abd",
      "sess_abc",
    ]);
    expect(matchSessions(sessions, "cache", "sess_now")).toEqual([
      { id: "sess_abc", title: "Cache work" },
    ]);
    expect(matchSessions(sessions, "", "sess_now", 2)).toHaveLength(2);
  });

  it("[M4] inserts the chosen id with one space after it", () => {
    const text = "look at #sess_a please";
    const mention = mentionAt(text, 14)!;
    expect(insertMention(text, mention, "sess_abc")).toEqual({
      text: "look at #sess_abc please",
      caret: 18,
    });
    expect(insertMention("#sess_", mentionAt("#sess_", 6)!, "sess_q")).toEqual({
      text: "#sess_q ",
      caret: 8,
    });
  });
});
