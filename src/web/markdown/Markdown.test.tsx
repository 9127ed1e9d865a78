// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Markdown, prefetchMarkdown } from "./Markdown.tsx";

// The parser loads lazily; wait until the plain-text fallback has been replaced.
async function renderMarkdown(text: string) {
  const result = render(<Markdown text={text} />);
  await waitFor(() => expect(result.container.querySelector(".markdown-plain")).toBeNull());
  return result;
}

describe("Markdown", () => {
  it("[W1] renders headings, lists, GFM tables and code blocks", async () => {
    const text = [
      "# Plan",
      "",
      "- first",
      "- second",
      "",
      "| file | change |",
      "| --- | --- |",
      "| a.ts | add |",
      "",
      "```ts",
      "const x = 1;",
      "```",
    ].join("\n");
    const { container } = await renderMarkdown(text);
    expect(screen.getByRole("heading", { level: 1, name: "Plan" })).toBeInTheDocument();
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "first",
      "second",
    ]);
    expect(screen.getByRole("table")).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "change" })).toBeInTheDocument();
    expect(screen.getByRole("cell", { name: "a.ts" })).toBeInTheDocument();
    expect(container.querySelector("pre code")?.textContent).toContain("const x = 1;");
  });

  it("[R5] never turns raw HTML into elements", async () => {
    const { container } = await renderMarkdown(
      'Hello <script>window.pwned = 1</script>\n\n<img src="x" onerror="window.pwned = 2">\n\n<b>bold</b>',
    );
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
    expect(container.querySelector("[onerror]")).toBeNull();
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });

  it("[R5] neutralises a javascript: link and keeps safe links in a new tab", async () => {
    const { container } = await renderMarkdown(
      "[click me](javascript:alert(1)) and [docs](https://example.com/docs)",
    );
    expect(screen.queryByRole("link", { name: "click me" })).toBeNull();
    expect(screen.getByText("click me")).toBeInTheDocument();
    for (const anchor of container.querySelectorAll("a")) {
      expect(anchor.getAttribute("href") ?? "").not.toMatch(/^\s*javascript:/i);
    }
    const docs = screen.getByRole("link", { name: "docs" });
    expect(docs).toHaveAttribute("href", "https://example.com/docs");
    expect(docs).toHaveAttribute("target", "_blank");
    expect(docs).toHaveAttribute("rel", "noopener noreferrer");
  });

  it("[W1] renders every section of a long plan once progressive rendering finishes", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `## Step ${i}\n\n- item ${i}`).join("\n\n");
    await renderMarkdown(text);
    expect(await screen.findByRole("heading", { name: "Step 29" })).toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 2 })).toHaveLength(30);
  });

  it("[W1] shows a long plan's first screen at once and the rest in later tasks", async () => {
    const section = (i: number) => `## Step ${i}\n\n${"A sentence of the plan. ".repeat(5)}`;
    await prefetchMarkdown();
    // With the parser loaded the first render is synchronous: what it shows before any other
    // task has run is the first screen.
    const { container } = render(
      <Markdown text={Array.from({ length: 60 }, (_, i) => section(i)).join("\n\n")} />,
    );
    const headings = () => container.querySelectorAll("h2").length;
    expect(headings()).toBeGreaterThan(0);
    expect(headings()).toBeLessThan(60);
    await waitFor(() => expect(headings()).toBe(60), { timeout: 10_000 });
    expect(screen.getByRole("heading", { name: "Step 59" })).toBeInTheDocument();
  });

  it("[W1] renders a long plan in steps of a display frame's script, the first step short", async () => {
    const plan = Array.from(
      { length: 400 },
      (_, i) => `${i + 1}. Step ${i}: update \`module${i}.ts\` so that *cache* entry ${i} expires`,
    ).join("\n");
    await prefetchMarkdown();
    // A clock in which each block rendered costs 5 ms, however often it is read.
    const holder = document.createElement("div");
    document.body.append(holder);
    const blocks = () => holder.querySelectorAll(".md-block").length;
    const now = vi.spyOn(performance, "now").mockImplementation(() => blocks() * 5);
    try {
      const perStep: number[] = [];
      // Mutation records are delivered once per task: one list of additions per render step.
      const observer = new MutationObserver((records) => {
        const added = records.flatMap((record) => [...record.addedNodes]);
        const count = added.filter((node) => (node as Element).classList?.contains("md-block"));
        if (count.length > 0) perStep.push(count.length);
      });
      const { container } = render(<Markdown text={plan} />, { container: holder });
      observer.observe(container, { childList: true, subtree: true });
      const total = (await import("./splitBlocks.ts")).splitMarkdownBlocks(plan).length;
      await waitFor(() => expect(blocks()).toBe(total), { timeout: 10_000 });
      observer.disconnect();
      // 8 ms: two blocks of 5 ms; then 16 ms: four, but for what is left at the end.
      expect(perStep[0]).toBe(2);
      expect(perStep.slice(1, -1)).toEqual(perStep.slice(1, -1).map(() => 4));
      expect(perStep.length).toBeGreaterThan(3);
    } finally {
      now.mockRestore();
      holder.remove();
    }
  });

  it("[R5] drops a data: image URL", async () => {
    const { container } = await renderMarkdown("![pic](data:text/html;base64,PHNjcmlwdD4=)");
    expect(container.querySelector("img")).toBeNull();
  });
  it("[W1] a revision of a long plan shows all of its text, however many pieces were shown before", async () => {
    const plan = (label: string, length: number) =>
      Array.from(
        { length },
        (_, i) => `${i + 1}. ${label} step ${i} ${"of the plan ".repeat(6)}`,
      ).join("\n");
    await prefetchMarkdown();
    const { container, rerender } = render(<Markdown text={plan("first", 400)} />);
    const items = () => container.querySelectorAll("li").length;
    await waitFor(() => expect(items()).toBe(400), { timeout: 10_000 });
    rerender(<Markdown text={plan("second", 40)} />);
    await waitFor(() => expect(items()).toBe(40));
    expect(screen.getByText(/second step 39/)).toBeInTheDocument();
    rerender(<Markdown text={plan("third", 420)} />);
    await waitFor(() => expect(items()).toBe(420), { timeout: 10_000 });
    expect(container.querySelector("li")?.textContent).toMatch(/^third step 0/);
  });
});
