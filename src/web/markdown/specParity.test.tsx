import { tests as commonmarkExamples } from "commonmark-spec";
import { renderToStaticMarkup } from "react-dom/server";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { FootnoteLedger } from "./footnoteLedger.ts";
import { namedEntitiesFor } from "./namedEntities.ts";
import { components, renderFootnoteList, renderMarkdown } from "./renderMarkdown.tsx";
import { SOFT_BLOCK_CHARS, splitMarkdown } from "./splitBlocks.ts";

// R5: the fast parser stays at parity with react-markdown + remark-gfm, the reference, on the
// CommonMark 0.31.2 spec examples and on GFM's extensions, whole and through the split path.
const reference = (text: string) =>
  renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
      {text}
    </ReactMarkdown>,
  );
const whole = (text: string) => renderToStaticMarkup(<>{renderMarkdown(text)}</>);
/**
 * As MarkdownRenderer shows it: each piece on its own, with the document's definitions and the
 * notes referenced before it, then the notes' list.
 */
const split = (text: string) => {
  const { blocks, definitions, footnoteLabels } = splitMarkdown(text);
  const ledger = footnoteLabels.size > 0 ? new FootnoteLedger(blocks, footnoteLabels) : null;
  const pieces = blocks.map((block, index) =>
    renderToStaticMarkup(<>{renderMarkdown(block, definitions, ledger?.before(index))}</>),
  );
  if (ledger) pieces.push(renderToStaticMarkup(<>{renderFootnoteList(ledger)}</>));
  return pieces.join("");
};
// Newlines between block elements are not content; a list, table or code block cut into pieces
// is one again once the seams between its pieces are removed.
const normalise = (html: string) =>
  html
    .replace(/>\s+</g, "><")
    .replace(/<\/ul><ul>|<\/ol><ol start="\d+">/g, "")
    .replace(
      /<\/tbody><\/table><\/div><div class="md-table-scroll"><table><thead>.*?<\/thead><tbody>/g,
      "",
    )
    .replace(/<\/code><\/pre><pre><code(?: class="[^"]*")?>/g, "")
    .trim();

/** Examples whose difference is known, with why; keep this list short. */
const KNOWN_DIFFERENCES: Record<number, string> = {
  606: "remark-gfm links the e-mail inside `<foo\\+@bar.example.com>` as a GFM literal; linkify-it does not see it after the escape",
};

describe("markdown parity with remark-gfm (R5)", () => {
  it("[R5] renders every CommonMark 0.31.2 spec example as react-markdown + remark-gfm does, whole and split", async () => {
    const differing: number[] = [];
    for (const example of commonmarkExamples) {
      // As MarkdownRenderer does: a rare entity's table is in before the text is parsed.
      await namedEntitiesFor(example.markdown);
      const expected = normalise(reference(example.markdown));
      const same =
        normalise(whole(example.markdown)) === expected &&
        normalise(split(example.markdown)) === expected;
      if (!same) differing.push(example.number);
    }
    expect(commonmarkExamples).toHaveLength(652);
    expect(differing).toEqual(Object.keys(KNOWN_DIFFERENCES).map(Number));
  });

  const gfm: Record<string, string> = {
    table: "| a | b |\n| :-- | --: |\n| `x` | **y** |\n| c \\| d | |\n",
    "table without body": "| a | b |\n| --- | --- |\n",
    "task list": "- [ ] open\n- [x] done\n- not a task\n",
    strikethrough: "~~two~~ and ~one~ but not ~~~three~~~",
    "www literal": "See www.example.com/path.",
    "https literal with trailing punctuation": "Open https://example.com/a_(b)?c=1).",
    "literal ends at <": "https://example.com/a<b",
    email: "Mail a.b-c@example.co.uk, now.",
    "no literal": "README.md and src/a.ts",
    footnote: "A note.[^1]\n\n[^1]: The note.\n",
    "footnotes numbered by first reference, one referenced twice, one with two paragraphs":
      "Two[^b] refs[^a] and again[^b].\n\n[^a]: Alpha.\n[^b]: Beta\n    continued.\n\n    Second para.\n",
    "footnote without a definition stays text": "Missing[^x].\n",
    "footnote defined but never referenced is left out": "Unused.\n\n[^u]: Never referenced.\n",
    "footnote label matched ignoring case": "Case[^A].\n\n[^a]: Folded.\n",
    "footnote that ends in a list or code":
      "L[^l] and C[^c][^c].\n\n[^l]:\n    - one\n    - two\n\n[^c]: Text\n\n        code\n",
  };
  /** GFM cases that still differ, with why; each must still differ, so this list stays true. */
  const gfmKnown: Record<string, [markdown: string, why: string]> = {
    "literal with an entity at its end": [
      "https://example.com/q&amp;",
      "GFM leaves a trailing entity reference out of a bare link; linkify-it keeps it in",
    ],
  };
  for (const [name, [markdown, why]] of Object.entries(gfmKnown)) {
    it(`[R5] GFM ${name}: a known difference (${why})`, () => {
      expect(normalise(whole(markdown))).not.toBe(normalise(reference(markdown)));
    });
  }
  for (const [name, markdown] of Object.entries(gfm)) {
    it(`[R5] GFM ${name}: same as remark-gfm, whole and split`, () => {
      const expected = normalise(reference(markdown));
      expect(normalise(whole(markdown))).toBe(expected);
      expect(normalise(split(markdown))).toBe(expected);
    });
  }
});

describe("the split path (R5, W1)", () => {
  const long = (count: number, line: (index: number) => string) =>
    Array.from({ length: count }, (_, index) => line(index)).join("\n");
  const pieces = (text: string) => splitMarkdown(text).blocks;
  const largest = (text: string) => Math.max(...pieces(text).map((piece) => piece.length));

  const shapes: Record<string, string> = {
    "one long list": `# Plan\n\n${long(400, (i) => `${i + 1}. Step ${i}: change \`f${i}\` and *test* it`)}\n`,
    "one long loose list": `${long(200, (i) => `- item ${i} with [a link](https://e.com/${i})\n`)}`,
    "one long code block": `Intro\n\n\`\`\`bash\n${long(1000, (i) => `# step ${i}\necho ${i}`)}\n\`\`\`\n\nAfter.\n`,
    "a long table": `| # | name | note |\n| ---: | :-- | --- |\n${long(500, (i) => `| ${i} | n${i} | *${i}* |`)}\n`,
    "long paragraphs": long(400, (i) => `Paragraph ${i} says something long enough.\n`),
  };
  for (const [name, text] of Object.entries(shapes)) {
    it(`[R5] ${name} is cut at block boundaries and renders as the whole does`, () => {
      expect(largest(text)).toBeLessThan(SOFT_BLOCK_CHARS * 2);
      expect(normalise(split(text))).toBe(normalise(reference(text)));
    });
  }

  it("[R5] a reference link defined in a later section resolves", () => {
    const text =
      "# A\n\nSee [the docs][docs] and [x].\n\n# B\n\n[docs]: https://e.com/docs 'Docs'\n[x]: /x\n";
    expect(pieces(text)).toHaveLength(2);
    expect(split(text)).toContain('href="https://e.com/docs"');
    expect(normalise(split(text))).toBe(normalise(reference(text)));
  });

  it("[R5] a long text with footnotes numbers them across its sections and lists them at its end", () => {
    const text = `# A\n\nFirst[^late] claim.\n\n${long(300, (i) => `- step ${i} of a long plan`)}\n\n# B\n\nSecond[^early] and first again[^late].\n\n[^early]: Defined first.\n[^late]: Defined last.\n`;
    expect(pieces(text).length).toBeGreaterThan(3);
    expect(normalise(split(text))).toBe(normalise(reference(text)));
    expect(split(text)).toContain('href="#user-content-fn-late"');
  });

  it("[R5] a fence opened on a list-item line keeps its # comments as code", () => {
    const text = "- run:\n- ```bash\n  # install\n  npm ci\n  ```\n\n# Next\n";
    expect(pieces(text)).toHaveLength(2);
    expect(normalise(split(text))).toBe(normalise(reference(text)));
  });

  it("[R5] a fence line with a language inside an open fence does not end it", () => {
    const text = "````md\n```ts\n# not a heading\n```\n````\n\n# After\n";
    expect(pieces(text)).toHaveLength(2);
    expect(normalise(split(text))).toBe(normalise(reference(text)));
  });
});
