// The app's renderer with the step size as a prop, to compare step sizes side by side:
// a fixed number of characters per step, or as many blocks as parse within `budgetMs`.
import { memo, useEffect, useMemo, useState } from "react";
import { renderMarkdown } from "../../../src/web/markdown/renderMarkdown.tsx";
import { splitMarkdownBlocks } from "../../../src/web/markdown/splitBlocks.ts";

const Block = memo(function Block({ text }: { text: string }) {
  return renderMarkdown(text);
});

function nextEnd(blocks: string[], start: number, stepChars: number): number {
  let end = start;
  let chars = 0;
  while (
    end < blocks.length &&
    (end === start || chars + (blocks[end]?.length ?? 0) <= stepChars)
  ) {
    chars += blocks[end]?.length ?? 0;
    end += 1;
  }
  return end;
}

function budgetEnd(blocks: string[], start: number, budgetMs: number): number {
  const began = performance.now();
  let end = start;
  do {
    renderMarkdown(blocks[end] ?? "");
    end += 1;
  } while (end < blocks.length && performance.now() - began < budgetMs);
  return end;
}

export default memo(function SteppedRenderer({
  text,
  stepChars,
  budgetMs,
}: {
  text: string;
  stepChars: number;
  budgetMs?: number;
}) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  const [shown, setShown] = useState(() => nextEnd(blocks, 0, stepChars));
  useEffect(() => {
    if (shown >= blocks.length) return;
    const timer = setTimeout(
      () =>
        setShown(
          budgetMs === undefined
            ? nextEnd(blocks, shown, stepChars)
            : budgetEnd(blocks, shown, budgetMs),
        ),
      0,
    );
    return () => clearTimeout(timer);
  }, [shown, blocks, stepChars, budgetMs]);
  return (
    <div className="markdown">
      {blocks.slice(0, shown).map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
        <div className="md-block" key={index}>
          <Block text={block} />
        </div>
      ))}
    </div>
  );
});
