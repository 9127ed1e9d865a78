// @vitest-environment jsdom
import { act, render } from "@testing-library/react";
import { useLayoutEffect } from "react";
import { describe, expect, it } from "vitest";
import { TeardownScope, useTeardown } from "./teardown.tsx";

let release: (() => void) | undefined;

/** Stands for a long plan: holds its scope while leaving until the test releases it. */
function SlowPart() {
  const teardown = useTeardown();
  const leaving = teardown?.leaving ?? false;
  useLayoutEffect(() => {
    if (!leaving || teardown === null) return;
    release = teardown.hold();
  }, [leaving, teardown]);
  return <p>{leaving ? "leaving" : "shown"}</p>;
}

function Nested({ outer, inner, done }: { outer: boolean; inner: boolean; done: string[] }) {
  return (
    <TeardownScope leaving={outer} onDone={() => done.push("outer")}>
      <TeardownScope leaving={inner} onDone={() => done.push("inner")}>
        <SlowPart />
      </TeardownScope>
    </TeardownScope>
  );
}

describe("TeardownScope", () => {
  it("[W1] a part inside a scope whose outer scope leaves leaves too, and holds the outer scope until it is down", () => {
    const done: string[] = [];
    const view = render(<Nested outer={false} inner={false} done={done} />);
    expect(view.container).toHaveTextContent("shown");
    view.rerender(<Nested outer={true} inner={false} done={done} />);
    expect(view.container).toHaveTextContent("leaving");
    expect(done).toEqual([]);
    act(() => release?.());
    // Only the scope that was told to leave is done; the inner one never was.
    expect(done).toEqual(["outer"]);
  });

  it("[W12] an inner scope leaving on its own is done when its part is down; the outer one stays", () => {
    const done: string[] = [];
    const view = render(<Nested outer={false} inner={false} done={done} />);
    view.rerender(<Nested outer={false} inner={true} done={done} />);
    act(() => release?.());
    expect(done).toEqual(["inner"]);
  });

  it("[W1] a scope with nothing to take down is done at once", () => {
    const done: string[] = [];
    render(
      <TeardownScope leaving={true} onDone={() => done.push("scope")}>
        <p>short</p>
      </TeardownScope>,
    );
    expect(done).toEqual(["scope"]);
  });
});
