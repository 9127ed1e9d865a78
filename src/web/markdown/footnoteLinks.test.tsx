// @vitest-environment jsdom
import { fireEvent, render } from "@testing-library/react";
import { renderMarkdown } from "./renderMarkdown.tsx";

describe("footnote links (R5)", () => {
  const plan = "Cache the lookups[^ttl].\n\n[^ttl]: Five minutes, as the pricing API allows.\n";

  it("[R5] a footnote's reference scrolls to its note and back within the text, leaving the page's route alone", () => {
    window.location.hash = "#/s/session-1";
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    const { container } = render(<div className="markdown">{renderMarkdown(plan)}</div>);
    const reference = container.querySelector<HTMLAnchorElement>("a[data-footnote-ref]");
    expect(reference?.textContent).toBe("1");
    expect(reference?.target).toBe(""); // not a new tab of the app
    fireEvent.click(reference!);
    expect(scrolled).toEqual(["user-content-fn-ttl"]);
    fireEvent.click(container.querySelector("a[data-footnote-backref]")!);
    expect(scrolled).toEqual(["user-content-fn-ttl", "user-content-fnref-ttl"]);
    expect(window.location.hash).toBe("#/s/session-1");
    expect(container.querySelector("section.footnotes li")?.textContent).toContain("Five minutes");
  });

  it("[R5] an agent's in-text link with a malformed escape neither throws nor leaves the page", () => {
    window.location.hash = "#/s/session-1";
    const { container } = render(
      <div className="markdown">{renderMarkdown("[jump](#%E0%A4%A) here")}</div>,
    );
    const link = container.querySelector("a")!;
    // Kept as a half UTF-8 sequence (%E0%A4): decoding it throws.
    expect(() => decodeURIComponent(link.getAttribute("href")!.slice(1))).toThrow(URIError);
    // React reports an event handler's throw to the window, not to the one who clicked.
    const reported: unknown[] = [];
    const onError = (event: ErrorEvent) => {
      reported.push(event.error);
      event.preventDefault();
    };
    window.addEventListener("error", onError);
    fireEvent.click(link);
    window.removeEventListener("error", onError);
    expect(reported).toEqual([]);
    expect(window.location.hash).toBe("#/s/session-1");
  });
});
