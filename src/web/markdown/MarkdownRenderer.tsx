import { memo, useEffect, useMemo, useState } from "react";
import { flushSync } from "react-dom";
import { renderMarkdown } from "./renderMarkdown.tsx";
import { splitMarkdown } from "./splitBlocks.ts";

export { warmUpMarkdown } from "./warmUp.ts";

const Block = memo(function Block({ text, definitions }: { text: string; definitions: string }) {
  return renderMarkdown(text, definitions);
});

// The first screen renders with the card; the rest in steps of about STEP_MS of script each.
// Blocks off screen skip layout (content-visibility in markdown.css), so a step's layout in the
// next frame is small and neither task comes near 50 ms even when a loaded machine stretches them.
const FIRST_CHARS = 2000;
const STEP_MS = 8;
const MIN_STEP_CHARS = 1000;
// Bounds a step made of sections already parsed (cached), which cost little script.
const MAX_STEP_CHARS = 16000;
// Characters parsed and rendered per millisecond, learnt from every step: it follows the
// machine's speed and load, and a cold start (unoptimised code) takes smaller steps.
let charsPerMs = 600;

function nextEnd(blocks: string[], start: number, budget: number): number {
  let end = start;
  let chars = 0;
  while (end < blocks.length && (end === start || chars + (blocks[end]?.length ?? 0) <= budget)) {
    chars += blocks[end]?.length ?? 0;
    end += 1;
  }
  return end;
}

function charsIn(blocks: string[], start: number, end: number): number {
  let chars = 0;
  for (let i = start; i < end; i++) chars += blocks[i]?.length ?? 0;
  return chars;
}

const stepChars = () =>
  Math.min(MAX_STEP_CHARS, Math.max(MIN_STEP_CHARS, Math.round(charsPerMs * STEP_MS)));

/**
 * Markdown from the model (R5): GFM, no raw HTML, only safe URLs, links open in a new tab.
 * Large texts are split at headings and block boundaries and rendered a few pieces per task so
 * no task runs long;
 * each block is memoised on its own text so plan revisions reuse unchanged sections.
 */
export default memo(function MarkdownRenderer({ text }: { text: string }) {
  const { blocks, definitions } = useMemo(() => splitMarkdown(text), [text]);
  const [shown, setShown] = useState(() => nextEnd(blocks, 0, FIRST_CHARS));
  useEffect(() => {
    if (shown >= blocks.length) return;
    // One step per macrotask, so the browser can lay out, paint and handle input in between.
    // A message, not a timer: nested timers are held back at least 4 ms each.
    // The step renders synchronously, so its whole cost is measured here.
    const channel = new MessageChannel();
    let cancelled = false;
    channel.port1.onmessage = () => {
      if (cancelled) return;
      const end = nextEnd(blocks, shown, stepChars());
      const began = performance.now();
      flushSync(() => setShown(end));
      const ms = performance.now() - began;
      if (ms > 0.5) charsPerMs = (charsPerMs + charsIn(blocks, shown, end) / ms) / 2;
    };
    channel.port2.postMessage(null);
    return () => {
      cancelled = true;
      channel.port1.close();
    };
  }, [shown, blocks]);
  return (
    <div className="markdown">
      {blocks.slice(0, shown).map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional; text memo reuses work
        <div className="md-block" key={index}>
          <Block text={block} definitions={definitions} />
        </div>
      ))}
    </div>
  );
});
