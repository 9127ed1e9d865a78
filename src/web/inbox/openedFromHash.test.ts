import { describe, expect, it } from "vitest";
import { parseHash } from "../client/route.ts";
import { openedFromHash } from "./openedFromHash.ts";

describe("inbox links", () => {
  it("[U3] #/inbox/<id> is the inbox with that card opened", () => {
    expect(parseHash("#/inbox/int_1")).toEqual({ page: "inbox" });
    expect(parseHash("#/inbox")).toEqual({ page: "inbox" });
    expect(openedFromHash("#/inbox/int%201")).toBe("int 1");
    expect(openedFromHash("#/inbox")).toBeNull();
    expect(openedFromHash("#/inbox/%E0%A4%A")).toBeNull();
  });
});
