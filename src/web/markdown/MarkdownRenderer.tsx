import { memo, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTeardown } from "../layout/teardown.tsx";
import { PAGE_BLOCKS } from "./blockRuns.ts";
import { FootnoteLedger } from "./footnoteLedger.ts";
import type { FootnoteNaming } from "./footnoteNaming.ts";
import { useFootnoteNaming } from "./footnoteNamingContext.tsx";
import type { FootnotesBefore } from "./gfmFootnotes.ts";
import { namedEntitiesFor } from "./namedEntities.ts";
import { renderFootnoteList, renderMarkdown } from "./renderMarkdown.tsx";
import { type LazySplit, splitLazily } from "./splitBlocks.ts";

export { warmUpMarkdown } from "./warmUp.ts";

const Block = memo(function Block({
  text,
  definitions,
  footnotes,
  naming,
}: {
  text: string;
  definitions: string;
  footnotes: FootnotesBefore | undefined;
  naming: FootnoteNaming;
}) {
  return renderMarkdown(text, definitions, footnotes, naming);
});

/** A text's footnotes, listed once its last piece is shown. */
const FootnoteList = memo(function FootnoteList({
  ledger,
  naming,
}: {
  ledger: FootnoteLedger;
  naming: FootnoteNaming;
}) {
  return <div className="md-block">{renderFootnoteList(ledger, naming)}</div>;
});

// Blocks are rendered in runs of PAGE_BLOCKS: a step that adds a block re-renders only the last
// run, not a list of every block shown so far (that made a 200-block plan quadratic: each of
// its 200 commits walked all the blocks before it). A run is a fragment, so the blocks stay
// siblings in the DOM (markdown.css and the comment blocks read them as such).

const Page = memo(function Page({
  split,
  from,
  to,
  eager,
  definitions,
  ledger,
  naming,
}: {
  split: LazySplit;
  from: number;
  to: number;
  /** Blocks before this one are the first screen's: never skipped (markdown.css). */
  eager: number;
  definitions: string;
  ledger: FootnoteLedger | null;
  naming: FootnoteNaming;
}) {
  const blocks: ReactNode[] = [];
  for (let index = from; index < to; index++) {
    blocks.push(
      <div className={index < eager ? "md-block md-block--eager" : "md-block"} key={index}>
        <Block
          text={split.blocks[index] ?? ""}
          definitions={definitions}
          footnotes={ledger?.before(index)}
          naming={naming}
        />
      </div>,
    );
  }
  return blocks;
});

// The first screen renders with the card; the rest a block at a time, as many blocks per task
// as fit in STEP_MS of script (at least one). Each block is committed on its own, so its cost is
// known before the next is started: a step overruns STEP_MS by at most one block (~1.5 KB), on
// any machine and under any load. Blocks off screen skip layout (content-visibility in
// markdown.css), so the layout of a step in the next frame stays small too.
// Every step is followed by a rendering update that costs ~3 ms however little it added (style,
// layout, paint of the visible plan): 8 ms steps spent a quarter of a long plan's time on
// frames showing nothing new, so later steps fill a display frame. The first step may run
// before the first screen is painted, so it stays short.
const FIRST_CHARS = 2000;
const FIRST_STEP_MS = 8;
const STEP_MS = 16;
// Leaving (a hidden card, see layout/teardown.tsx), a plan longer than a run of blocks is taken
// down from the end, a few blocks per commit and FIRST_STEP_MS per task: detaching a long
// plan's nodes at once was one task of ~50 ms (a 300 KB list).
const TEARDOWN_BLOCKS = 4;

function nextEnd(split: LazySplit, start: number, budget: number): number {
  let end = start;
  let chars = 0;
  while (split.has(end) && (end === start || chars + (split.blocks[end]?.length ?? 0) <= budget)) {
    chars += split.blocks[end]?.length ?? 0;
    end += 1;
  }
  return end;
}

/**
 * Runs `step` (one commit each) a macrotask at a time, as many steps per task as fit in its
 * budget (at least one), so the browser can lay out, paint and handle input in between; stops
 * when `step` returns false, then calls `onEnd`. A message, not a timer: nested timers are held
 * back at least 4 ms each.
 */
function inTasks(
  step: () => boolean,
  budgetMs: (task: number) => number,
  onEnd?: () => void,
): () => void {
  const channel = new MessageChannel();
  let stopped = false;
  let task = 0;
  channel.port1.onmessage = () => {
    if (stopped) return;
    const began = performance.now();
    const budget = budgetMs(task++);
    let more: boolean;
    do more = step();
    while (!stopped && more && performance.now() - began < budget);
    if (stopped) return;
    if (more) channel.port2.postMessage(null);
    else onEnd?.();
  };
  channel.port2.postMessage(null);
  return () => {
    stopped = true;
    channel.port1.close();
  };
}

/**
 * Markdown from the model (R5): GFM, no raw HTML, only safe URLs, links open in a new tab.
 * Large texts are split at headings and block boundaries and rendered a few blocks per task so
 * no task runs long; each block is memoised on its own text so plan revisions reuse unchanged
 * sections. The text is split as the blocks are rendered, so the first screen costs what it
 * shows, not the length of the plan.
 */
export default memo(function MarkdownRenderer({ text }: { text: string }) {
  // A rare `&name;` is parsed once the full table is in (Markdown shows the text plain till then),
  // so no block is rendered, and cached, without it.
  const entities = namedEntitiesFor(text);
  if (entities) throw entities;
  const split = useMemo(() => splitLazily(text), [text]);
  // Known once the text is split whole, which a text with definitions is at once.
  const ledger = useMemo(
    () =>
      split.footnoteLabels.size > 0 ? new FootnoteLedger(split.blocks, split.footnoteLabels) : null,
    [split],
  );
  // The first screen's blocks: laid out at once, as they show (see markdown.css).
  const eager = useMemo(() => nextEnd(split, 0, FIRST_CHARS), [split]);
  const [shown, setShown] = useState(eager);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const naming = useFootnoteNaming();
  const teardown = useTeardown();
  const leaving = teardown?.leaving ?? false;
  useLayoutEffect(() => {
    if (!leaving || teardown === null || shownRef.current <= PAGE_BLOCKS) return;
    const release = teardown.hold();
    const stop = inTasks(
      () => {
        const next = Math.max(0, shownRef.current - TEARDOWN_BLOCKS);
        flushSync(() => setShown(next));
        return next > 0;
      },
      () => FIRST_STEP_MS,
      release,
    );
    return () => {
      stop();
      release();
    };
  }, [leaving, teardown]);
  useEffect(() => {
    if (leaving || !split.has(shownRef.current)) return;
    return inTasks(
      () => {
        const next = shownRef.current + 1;
        flushSync(() => setShown(next));
        return split.has(next);
      },
      (task) => (task === 0 ? FIRST_STEP_MS : STEP_MS),
    );
  }, [split, leaving]);
  // A new text (a plan revision) keeps the count shown so far: split that far before slicing.
  split.has(shown - 1);
  const { definitions } = split;
  const end = Math.min(shown, split.blocks.length);
  const pages: ReactNode[] = [];
  for (let from = 0; from < end; from += PAGE_BLOCKS) {
    pages.push(
      <Page
        key={from}
        split={split}
        from={from}
        to={Math.min(end, from + PAGE_BLOCKS)}
        eager={eager}
        definitions={definitions}
        ledger={ledger}
        naming={naming}
      />,
    );
  }
  if (ledger && end === split.blocks.length && !split.has(end)) {
    pages.push(<FootnoteList key="footnotes" ledger={ledger} naming={naming} />);
  }
  return <div className="markdown">{pages}</div>;
});
