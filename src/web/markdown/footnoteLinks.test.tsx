// @vitest-environment jsdom
import { fireEvent, render, waitFor } from "@testing-library/react";
import { createAppI18n } from "../i18n/i18n.ts";
import zhCN from "../i18n/locale.zh-CN.ts";
import { TranslationProvider } from "../i18n/useTranslation.tsx";
import { FootnoteLedger } from "./footnoteLedger.ts";
import { LocalizedFootnotes } from "./footnoteNamingContext.tsx";
import { MAX_BACK_REFERENCES } from "./gfmFootnotes.ts";
import MarkdownRenderer from "./MarkdownRenderer.tsx";
import { renderFootnoteList, renderMarkdown } from "./renderMarkdown.tsx";
import { splitMarkdown } from "./splitBlocks.ts";

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

  it("[R5] a screen reader hears a text's notes in the page's language, whole or drawn in pieces", async () => {
    const steps = Array.from({ length: 300 }, (_, i) => `- step ${i}`).join("\n");
    const long = `# Plan\n\nCache[^ttl] it[^ttl].\n\n${steps}\n\n[^ttl]: Five minutes.\n`;
    const i18n = createAppI18n("zh-CN", zhCN);
    for (const text of [plan, long]) {
      const { container, unmount } = render(
        <TranslationProvider translator={i18n}>
          <LocalizedFootnotes>
            <MarkdownRenderer text={text} />
          </LocalizedFootnotes>
        </TranslationProvider>,
      );
      await waitFor(() => expect(container.querySelector("section.footnotes")).not.toBeNull());
      expect(container.querySelector("section.footnotes h2")?.textContent).toBe("脚注");
      const backs = [...container.querySelectorAll("a[data-footnote-backref]")];
      expect(backs[0]?.getAttribute("aria-label")).toBe("返回引用 1");
      if (text === long) expect(backs[1]?.getAttribute("aria-label")).toBe("返回引用 1-2");
      unmount();
    }
    // The same text in English afterwards is not served from the Chinese render.
    const { container } = render(<MarkdownRenderer text={plan} />);
    expect(container.querySelector("section.footnotes h2")?.textContent).toBe("Footnotes");
  });

  it("[R5][W5] two texts with notes on one page share no id: each reference scrolls to its own note and is described by its own heading", () => {
    // Two messages that both say [^ttl], and the same plan shown twice.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const { container } = render(
      <>
        <MarkdownRenderer text={plan} />
        <MarkdownRenderer text={plan.replace("Five minutes", "Ten minutes")} />
        <MarkdownRenderer text={plan} />
      </>,
    );
    const ids = [...container.querySelectorAll("[id]")].map((element) => element.id);
    expect(ids).toHaveLength(9); // per text: the reference, its note, the notes' heading
    expect(new Set(ids).size).toBe(ids.length);
    const texts = [...container.querySelectorAll(":scope > .markdown")];
    texts.forEach((text, i) => {
      const reference = text.querySelector<HTMLAnchorElement>("a[data-footnote-ref]")!;
      const description = reference.getAttribute("aria-describedby")!;
      expect(text.querySelector(`[id="${description}"]`)?.textContent).toBe("Footnotes");
      fireEvent.click(reference);
      expect(scrolled[i]?.closest("li")?.textContent).toContain(i === 1 ? "Ten" : "Five");
      expect(text.contains(scrolled[i] ?? null)).toBe(true);
    });
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

  it("[R5][W1] a long plan with notes is still drawn in pieces; its notes are numbered across them and listed once, after the last", async () => {
    const steps = Array.from({ length: 300 }, (_, i) => `- step ${i} of the migration`).join("\n");
    const plan = `# Plan\n\nCache the lookups[^ttl].\n\n${steps}\n\n# Check\n\nMisses[^miss] count, and the TTL[^ttl] holds.\n\n[^ttl]: Five minutes.\n[^miss]: One extra request.\n`;
    expect(splitMarkdown(plan).blocks.length).toBeGreaterThan(3);
    const { container } = render(<MarkdownRenderer text={plan} />);
    await waitFor(() => expect(container.querySelector("section.footnotes")).not.toBeNull());
    expect(container.querySelectorAll("section.footnotes")).toHaveLength(1);
    expect(
      container.lastElementChild?.lastElementChild?.querySelector("section.footnotes"),
    ).not.toBeNull();
    // Ids are scoped to the text (see the test above): user-content-<scope>-fnref-ttl.
    const unscoped = (id: string) => id.replace(/^user-content-[A-Za-z0-9]+-/, "");
    const numbers = [...container.querySelectorAll("a[data-footnote-ref]")].map((a) => [
      unscoped(a.id),
      a.textContent,
    ]);
    expect(numbers).toEqual([
      ["fnref-ttl", "1"],
      ["fnref-miss", "2"],
      ["fnref-ttl-2", "1"],
    ]);
    const notes = [...container.querySelectorAll("section.footnotes li")].map((li) => li.id);
    expect(notes.map(unscoped)).toEqual(["fn-ttl", "fn-miss"]);
  });

  it("[R5] a note referenced thousands of times lists a bounded number of ways back, so a hostile plan cannot make its list one huge task", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `Line ${i} ${"[^a]".repeat(25)}`);
    const plan = `${lines.join("\n\n")}\n\n[^a]: The note.\n`;
    const { blocks, definitions, footnoteLabels } = splitMarkdown(plan);
    const ledger = new FootnoteLedger(blocks, footnoteLabels);
    const pieces = blocks.map((block, index) =>
      renderMarkdown(block, definitions, ledger.before(index)),
    );
    const { container } = render(
      <div className="markdown">
        {pieces}
        {renderFootnoteList(ledger)}
      </div>,
    );
    // Every reference is shown and numbered; the list links back to the first ones only.
    expect(container.querySelectorAll("a[data-footnote-ref]")).toHaveLength(5000);
    const back = container.querySelectorAll("section.footnotes a[data-footnote-backref]");
    expect(back).toHaveLength(MAX_BACK_REFERENCES);
    expect(back[back.length - 1]?.getAttribute("href")).toBe(
      `#user-content-fnref-a-${MAX_BACK_REFERENCES}`,
    );
  });
});
