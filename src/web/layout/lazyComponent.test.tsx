// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { lazyComponent } from "./lazyComponent.tsx";

function Part({ label }: { label: string }) {
  return <p>{label}</p>;
}

describe("a part whose code is its own chunk (issue 15)", () => {
  it("[W8] a chunk that fails to load (server restarting) keeps the fallback instead of blanking the page, and loads on the next try", async () => {
    let fetches = 0;
    const part = lazyComponent(
      () => {
        fetches += 1;
        return fetches === 1
          ? Promise.reject(new Error("chunk fetch failed"))
          : Promise.resolve(Part);
      },
      <p>loading</p>,
    );
    const { rerender } = render(
      <main>
        <h1>page</h1>
        <part.Component label="the part" retryKey={1} />
      </main>,
    );
    expect(screen.getByText("loading")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetches).toBe(1);
    expect(screen.getByRole("heading", { name: "page" })).toBeInTheDocument();
    expect(screen.getByText("loading")).toBeInTheDocument();

    rerender(
      <main>
        <h1>page</h1>
        <part.Component label="the part" retryKey={2} />
      </main>,
    );
    expect(await screen.findByText("the part")).toBeInTheDocument();
    expect(fetches).toBe(2);
  });
});
