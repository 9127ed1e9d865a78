import type { Passage } from "./passages.ts";
import { rankPassages, terms } from "./rank.ts";

const passage = (seq: number, text: string): Passage => ({ seq, role: "assistant", text });

describe("ranking passages against a query (M4 local fallback)", () => {
  it("[M4] splits words case-insensitively, drops filler words, and splits Chinese text into character pairs", () => {
    expect(terms("Fix the Redis-cache TTL, v2")).toEqual(["fix", "redis", "cache", "ttl", "v2"]);
    expect(terms("修复缓存")).toEqual(["修复", "复缓", "缓存"]);
  });

  it("[M4] ranks by term overlap, rarer terms weighing more (BM25)", () => {
    const passages = [
      passage(1, "We talked about the weather and the weather only."),
      passage(2, "The Redis cache TTL was set to 60 seconds in src/cache.ts."),
      passage(3, "The cache is in memory."),
      passage(4, "Unrelated: the logo colour."),
    ];
    const ranked = rankPassages(passages, "which TTL did we pick for the Redis cache?");
    const order = ranked.map((r) => r.passage.seq);
    expect(order).toEqual([2, 3]);
    expect(ranked[0]!.score).toBeGreaterThan(2 * ranked[1]!.score);
  });

  it("[M4] returns nothing when no passage shares a term with the query", () => {
    expect(rankPassages([passage(1, "alpha beta")], "gamma delta")).toEqual([]);
    expect(rankPassages([passage(1, "alpha beta")], "?!")).toEqual([]);
  });

  it("[M4] matches a Chinese query inside a Chinese sentence", () => {
    const ranked = rankPassages(
      [passage(1, "我们决定把缓存放在 Redis 里。"), passage(2, "今天天气很好。")],
      "缓存放在哪里",
    );
    expect(ranked[0]!.passage.seq).toBe(1);
  });
});
