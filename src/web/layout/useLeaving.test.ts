// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useLeaving } from "./useLeaving.ts";

const keyOf = (item: string) => item;

function shown(current: string | null) {
  return { current };
}

describe("useLeaving", () => {
  it("[W1] keeps an item that leaves in steps mounted, marked leaving, until it is left", () => {
    const long = new Set(["a"]);
    const view = renderHook(({ current }) => useLeaving(current, keyOf, (item) => long.has(item)), {
      initialProps: shown("a"),
    });
    view.rerender(shown("b"));
    expect(view.result.current.mounted).toEqual([
      { each: "a", key: "a", isLeaving: true },
      { each: "b", key: "b", isLeaving: false },
    ]);
    act(() => view.result.current.left("a"));
    expect(view.result.current.mounted.map((item) => item.key)).toEqual(["b"]);
  });

  it("[W1] an item shown again before it was down stops leaving, and is not kept when it leaves with nothing long left", () => {
    const long = new Set(["a"]);
    const view = renderHook(({ current }) => useLeaving(current, keyOf, (item) => long.has(item)), {
      initialProps: shown("a"),
    });
    view.rerender(shown(null));
    view.rerender(shown("a"));
    expect(view.result.current.mounted).toEqual([{ each: "a", key: "a", isLeaving: false }]);
    long.delete("a");
    view.rerender(shown("b"));
    expect(view.result.current.mounted).toEqual([{ each: "b", key: "b", isLeaving: false }]);
  });
});
