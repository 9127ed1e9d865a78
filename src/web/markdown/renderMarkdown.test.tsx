import fc from "fast-check";
import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { components, renderMarkdown } from "./renderMarkdown.tsx";

// react-markdown + remark-gfm is the reference: the faster parser must hand our components the
// same elements. Raw HTML is text in both (react-markdown turns `raw` nodes into text).
const reference = (text: string) =>
  renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
      {text}
    </ReactMarkdown>,
  );
const ours = (text: string) => renderToStaticMarkup(<>{renderMarkdown(text)}</>);
// Newlines between block elements are not content.
const normalise = (html: string) => html.replace(/>\s+</g, "><").trim();

const representative = [
  "# Plan: *rework* the `runtime`",
  "",
  'Intro with **bold**, _em_, ~~gone~~, `code`, a [link](https://example.com/a?b=1&c=2 "T")',
  "and an autolink <https://example.org/x>, a literal www.example.com/path and https://x.dev.",
  "Mail me@example.com; not a link: README.md or src/a.ts. Escaped \\*stars\\* and &lt;b&gt; and",
  'inline <b>raw</b> HTML, [bad](javascript:alert(1)), ![pic](https://example.com/p.png "Pic"),',
  "![evil](data:text/html;base64,xx) and a hard break  ",
  "after two spaces\\",
  "and a backslash.",
  "",
  "## Steps",
  "",
  "1. First `step`",
  "   - nested *one*",
  "     - deeper",
  "   - nested two",
  "2. Second",
  "",
  "   with a second paragraph (loose list)",
  "",
  "5. starts at five",
  "6. six",
  "",
  "- [ ] open task",
  "- [x] done task",
  "- [X] **bold** task",
  "- plain item",
  "",
  "* [ ]",
  "* [y] not a task",
  "",
  "### Files",
  "",
  "| File | Change | Risk |",
  "| :--- | :----: | ---: |",
  "| `a.ts` | add **x** | low |",
  "| b.ts | a \\| pipe |",
  "",
  "| only | head |",
  "| --- | --- |",
  "",
  "```ts title=x",
  "const x = 1 < 2;",
  "",
  "```",
  "",
  "```",
  "plain fence",
  "```",
  "",
  "    indented code",
  "",
  "> quote with **bold**",
  ">",
  "> - list in quote",
  "",
  "---",
  "",
  "Setext heading",
  "--------------",
  "",
  "Last [ref link][r] and line.",
  "",
  "[r]: https://example.com/ref",
].join("\n");

describe("renderMarkdown", () => {
  it("[W1] builds the same HTML as react-markdown + remark-gfm for a representative plan", () => {
    expect(normalise(ours(representative))).toBe(normalise(reference(representative)));
  });

  it.each([
    ["a plain paragraph", "just text"],
    ["a loose task list", "- [ ] one\n\n- [x] two\n"],
    ["an empty fence", "```\n```"],
    ["a fence info with an entity", "```c&amp;d x\ncode\n```"],
    ["a fence left open at the end", "```\ncode\n# not a heading"],
    ["a list in a quote in a list", "- a\n  > - b\n  >   c\n- d"],
    ["emphasis across a soft break", "*one\ntwo*"],
    ["a table with a missing cell", "| a | b |\n|---|---|\n| 1 |"],
  ])("[W1] matches react-markdown for %s", (_name, text) => {
    expect(normalise(ours(text))).toBe(normalise(reference(text)));
  });

  it("[R5] shows raw HTML blocks as text, never as elements", () => {
    const html = ours('<img src="x" onerror="alert(1)">\n\n<script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain("&lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;");
  });

  it("[R5] blanks unsafe link and image URLs, keeping their text", () => {
    const html = ours("[x](javascript:alert(1)) [y](vbscript:z) ![z](data:image/png;base64,AA)");
    expect(html).toBe(
      '<p><span class="md-unsafe-link">x</span> <span class="md-unsafe-link">y</span> <span>z</span></p>',
    );
  });

  it("[R5] no mix of markdown and HTML yields an element or a URL that could run script", () => {
    const piece = fc.constantFrom(
      ...["# ", "- ", "1. ", "> ", "```", "    ", "\n", "\n\n", "*", "_", "~~", "`", "[", "]"],
      ...["| a | b |\n|---|---|\n", "[ ] ", "text ", "www.x.com", "a@b.co", "&lt;", "\\"],
      ...["<script>alert(1)</script>", '<img src=x onerror="alert(1)">', "<iframe>", "<b>"],
      ...["[l](javascript:alert(1))", "![i](javascript:x)", "<javascript:alert(1)>"],
      ...["[r]: javascript:alert(1)\n", "[l][r]", "[v](vbscript:x)", "![d](data:text/html,x)"],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const html = ours(parts.join(""));
        expect(html).not.toMatch(/<(script|iframe|b)[\s>]|<[a-z][^>]*\son\w+=/i);
        expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
      }),
      { numRuns: 300 },
    );
  });

  it("[W1] renders a list's items as its only children, without newlines between them", () => {
    // Issue 15: a 300 KB list is ~4,500 items; a newline text node between each pair was a
    // DOM node and a React fiber in seven, for whitespace the browser never renders.
    expect(ours("1. one\n2. `two`\n\n- [x] three\n- four\n  - five\n")).toBe(
      '<ol><li>one</li><li><code>two</code></li></ol>\n<ul class="contains-task-list"><li class="task-list-item"><input type="checkbox" checked disabled/> three</li><li>four\n<ul><li>five</li></ul>\n</li></ul>',
    );
  });

  it("[W1] reuses the elements of a section it has rendered before", () => {
    const text = "## Cached\n\n- a\n- b";
    expect(renderMarkdown(text)).toBe(renderMarkdown(text));
  });
});
