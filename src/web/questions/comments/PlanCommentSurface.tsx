import {
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { MAX_PLAN_COMMENTS, type PlanComment } from "../../../protocol/index.ts";
import { useTranslation } from "../../i18n/useTranslation.tsx";
import { Markdown } from "../../markdown/Markdown.tsx";
import { anchorFor, followUp, type Lines, locateAnchor } from "./anchors.ts";
import { CommentCard, CommentEditor, EarlierCommentCard } from "./CommentCard.tsx";
import { CardMeasures, type Layout, layoutCards } from "./cardLayout.ts";
import { type DomBlock, readDomBlocks, readDomBlocksInSteps } from "./domBlocks.ts";
import { highlightQuotes } from "./highlight.ts";
import { linesFor, linesIfReady, warmPlanLines } from "./planLines.ts";
import { useMarginLayout } from "./useMarginLayout.ts";
import { whenCommentLikely } from "./whenCommentLikely.ts";
import "./comments.css";

export interface FollowUpSummary {
  addressed: number;
  total: number;
}

interface Props {
  plan: string;
  comments: PlanComment[];
  /** V3: the comments the previous revision was refused with. */
  earlier?: { comments: PlanComment[]; revision: number } | undefined;
  disabled: boolean;
  /** The focusable plan region: it takes the block keys (j/k, c). */
  regionRef: RefObject<HTMLElement | null>;
  onChange(comments: PlanComment[]): void;
  onFollowUp?(summary: FollowUpSummary): void;
}

interface Draft {
  block: number;
  quote: string;
  endBlock: number;
  /** Set when adding failed: the text written, shown again with the error for another try. */
  failed?: { text: string } | undefined;
}

type Placed =
  | { key: string; block: number; kind: "comment"; comment: PlanComment }
  | {
      key: string;
      block: number;
      kind: "earlier";
      comment: PlanComment;
      status: "changed" | "unchanged";
    }
  | { key: string; block: number; kind: "draft" }
  | { key: string; block: number; kind: "add" };

/** Quiet time after the markdown's last change before its blocks are read. */
export const BLOCKS_SETTLE_MS = 60;

let commentCount = 0;
const newCommentId = () =>
  `c${Date.now().toString(36)}${(commentCount++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The block index an event's node lies in, or -1. */
function blockOf(node: Node | null, owners: Map<Element, number>): number {
  let element: Element | null = node instanceof Element ? node : (node?.parentElement ?? null);
  while (element !== null) {
    const index = owners.get(element);
    if (index !== undefined) return index;
    element = element.parentElement;
  }
  return -1;
}

/**
 * V1–V3: the rendered plan with its comments beside their anchors: in a margin on wide
 * windows, below the block on narrow ones. A block is picked with the pointer, a text
 * selection, or j/k (arrows) in the plan region; `c` (or Enter) comments on it.
 */
export function PlanCommentSurface({
  plan,
  comments,
  earlier,
  disabled,
  regionRef,
  onChange,
  onFollowUp,
}: Props) {
  const { t } = useTranslation("question");
  const planRef = useRef<HTMLDivElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const [blocks, setBlocks] = useState<DomBlock[]>([]);
  const [active, setActive] = useState(-1);
  // Keys pressed faster than React re-renders must each move from where the last one left
  // the mark, not from the block of the last render (j j j j moved only once or twice).
  const activeNow = useRef(active);
  activeNow.current = active;
  const [selection, setSelection] = useState<Draft | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const wide = useMarginLayout();
  // Adding waits for the line numbers; comments changed meanwhile must not be lost.
  const latestComments = useRef(comments);
  latestComments.current = comments;
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;
  // Stable, so the cards (memoised) re-render only when their own comment changes.
  const updateComment = useCallback((id: string, text: string) => {
    latestComments.current = latestComments.current.map((c) => (c.id === id ? { ...c, text } : c));
    latestOnChange.current(latestComments.current);
  }, []);
  const removeComment = useCallback(
    (id: string) => {
      latestComments.current = latestComments.current.filter((c) => c.id !== id);
      latestOnChange.current(latestComments.current);
      regionRef.current?.focus({ preventScroll: true });
    },
    [regionRef],
  );
  const marked = useRef(new Set<HTMLElement>()).current;
  useEffect(() => {
    // The plan's region, where its keys (j/k/c) are pressed too, or the plan itself.
    const root = regionRef.current ?? planRef.current;
    return root ? whenCommentLikely(root, () => warmPlanLines(plan)) : undefined;
  }, [plan, regionRef]);
  const blocksNow = useRef(blocks);
  blocksNow.current = blocks;
  // A key pressed before the renderer paused finds no blocks yet: read them at once then.
  const readBlocksNow = useCallback((): DomBlock[] => {
    const markdown = planRef.current?.querySelector(".markdown:not(.markdown-plain)");
    const read = markdown ? readDomBlocks(markdown) : [];
    blocksNow.current = read;
    setBlocks(read);
    return read;
  }, []);

  // The renderer adds pieces over several tasks; the blocks are read once it pauses, so reading
  // them never adds work to each of its steps (the plan's first screen stays as fast).
  useEffect(() => {
    const root = planRef.current;
    if (root === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelRead = () => {};
    const read = () => {
      clearTimeout(timer);
      cancelRead();
      timer = setTimeout(() => {
        const markdown = root.querySelector(".markdown:not(.markdown-plain)");
        if (markdown === null) setBlocks([]);
        // A long plan is read over several tasks; a change meanwhile starts the read again.
        else cancelRead = readDomBlocksInSteps(markdown, setBlocks);
      }, BLOCKS_SETTLE_MS);
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => {
      clearTimeout(timer);
      cancelRead();
      observer.disconnect();
    };
  }, []);

  const owners = useMemo(() => {
    const map = new Map<Element, number>();
    blocks.forEach((block, index) => {
      for (const element of block.elements) map.set(element, index);
    });
    return map;
  }, [blocks]);

  const located = useMemo(
    () => comments.map((comment) => locateAnchor(comment.anchor, blocks)),
    [comments, blocks],
  );
  const followUps = useMemo(
    () => (earlier?.comments ?? []).map((comment) => followUp(comment.anchor, blocks)),
    [earlier, blocks],
  );

  useEffect(() => {
    if (onFollowUp === undefined || earlier === undefined || blocks.length === 0) return;
    const addressed = followUps.filter((f) => f.status !== "unchanged").length;
    onFollowUp({ addressed, total: followUps.length });
  }, [followUps, earlier, blocks.length, onFollowUp]);

  const placed: Placed[] = [];
  (earlier?.comments ?? []).forEach((comment, index) => {
    const found = followUps[index];
    if (found && found.status !== "removed") {
      placed.push({
        key: `e${comment.id}`,
        block: found.index,
        kind: "earlier",
        comment,
        status: found.status,
      });
    }
  });
  comments.forEach((comment, index) => {
    const block = located[index] ?? -1;
    if (block >= 0) placed.push({ key: comment.id, block, kind: "comment", comment });
  });
  if (draft !== null) placed.push({ key: "draft", block: draft.block, kind: "draft" });
  else if (!disabled && (selection?.block ?? active) >= 0) {
    placed.push({ key: "add", block: selection?.block ?? active, kind: "add" });
  }
  placed.sort((a, b) => a.block - b.block);
  const gone = [
    ...(earlier?.comments ?? []).filter((_, index) => followUps[index]?.status === "removed"),
    ...comments.filter((_, index) => (located[index] ?? -1) < 0 && blocks.length > 0),
  ];

  // Marks, highlights and card positions follow every render and every change of size.
  // V1 budget: while the plan takes comments the margin is kept open, so the first comment does
  // not narrow the plan (a relayout of all of it in that click); a decided plan without comments
  // keeps its whole width.
  const layout: Layout = !wide
    ? "inline"
    : !disabled || placed.some((item) => item.kind !== "add")
      ? "margin"
      : "overlay";
  const [measures] = useState(() => new CardMeasures());
  const slotObserver = useRef<ResizeObserver | null>(null);
  const observedSlots = useRef(new Set<Element>()).current;
  const relayout = useCallback(() => {
    const layer = layerRef.current;
    if (layer === null) return;
    const slots = layoutCards(layer, blocks, layout, marked, measures);
    // A slot whose content grows or shrinks (a card opened for editing) is measured again.
    const observer = slotObserver.current;
    if (observer === null) return;
    const current = new Set<Element>(slots);
    for (const slot of observedSlots) {
      if (!current.has(slot)) {
        observer.unobserve(slot);
        observedSlots.delete(slot);
      }
    }
    for (const slot of slots) {
      if (!observedSlots.has(slot)) {
        observer.observe(slot);
        observedSlots.add(slot);
      }
    }
  }, [blocks, layout, marked, measures, observedSlots]);
  const relayoutNow = useRef(relayout);
  relayoutNow.current = relayout;
  useLayoutEffect(() => {
    markBlocks(marked, blocks, active, located, followUps);
    relayout();
  });
  // Highlights are repainted page-wide when replaced, so only when the comments move.
  useLayoutEffect(() => highlightQuotes(blocks, comments, located), [blocks, comments, located]);
  useLayoutEffect(() => {
    const root = planRef.current;
    if (root === null || typeof ResizeObserver === "undefined") return;
    const slots = new ResizeObserver((entries) => {
      let changed = false;
      for (const entry of entries) {
        const slot = entry.target as HTMLElement;
        if (measures.resized(slot, slot.offsetHeight)) changed = true;
      }
      if (changed) relayoutNow.current();
    });
    slotObserver.current = slots;
    // The plan's size moves its blocks: a window resize, a piece laid out once scrolled to,
    // the section of comments whose place is gone above it.
    const sizes = new ResizeObserver(() => {
      measures.forgetTops();
      relayoutNow.current();
    });
    sizes.observe(root);
    if (root.parentElement) sizes.observe(root.parentElement);
    relayoutNow.current();
    return () => {
      slots.disconnect();
      sizes.disconnect();
      slotObserver.current = null;
      observedSlots.clear();
    };
  }, [measures, observedSlots]);

  const openDraft = useCallback(
    (from: Draft | null) => {
      if (from === null || disabled || comments.length >= MAX_PLAN_COMMENTS) return;
      setDraft(from);
      setSelection(null);
    },
    [disabled, comments.length],
  );

  // V1 keyboard: move between blocks and comment without a mouse; no key here decides anything.
  useEffect(() => {
    const region = regionRef.current;
    if (region === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.target !== region || event.altKey || event.ctrlKey || event.metaKey) return;
      const blocks = blocksNow.current.length > 0 ? blocksNow.current : readBlocksNow();
      if (blocks.length === 0) return;
      const step =
        event.key === "j" || event.key === "ArrowDown"
          ? 1
          : event.key === "k" || event.key === "ArrowUp"
            ? -1
            : 0;
      const current = activeNow.current;
      if (step !== 0) {
        event.preventDefault();
        const next =
          current < 0
            ? step > 0
              ? 0
              : blocks.length - 1
            : Math.min(blocks.length - 1, Math.max(0, current + step));
        activeNow.current = next;
        setActive(next);
        setSelection(null);
        blocks[next]?.elements[0]?.scrollIntoView?.({ block: "nearest" });
      } else if ((event.key === "c" || event.key === "Enter") && current >= 0) {
        event.preventDefault();
        openDraft({ block: current, quote: blocks[current]?.text ?? "", endBlock: current });
      } else if (event.key === "Escape" && current >= 0) {
        activeNow.current = -1;
        setActive(-1);
      }
    };
    region.addEventListener("keydown", onKey);
    return () => region.removeEventListener("keydown", onKey);
  }, [regionRef, readBlocksNow, openDraft]);

  function onPointerUp() {
    const picked = window.getSelection();
    if (picked === null || picked.isCollapsed || picked.rangeCount === 0) {
      setSelection(null);
      return;
    }
    const range = picked.getRangeAt(0);
    const start = blockOf(range.startContainer, owners);
    const end = blockOf(range.endContainer, owners);
    const quote = picked.toString().trim();
    if (start < 0 || quote === "") return;
    setActive(start);
    setSelection({ block: start, quote, endBlock: Math.max(start, end) });
  }

  function onClick(event: React.MouseEvent) {
    const picked = window.getSelection();
    if (picked !== null && !picked.isCollapsed) return;
    // A click on a link (a source, a footnote) is for the link, not for picking its block.
    if ((event.target as Element).closest?.("a[href]")) return;
    const index = blockOf(event.target as Node, owners);
    if (index >= 0) {
      setActive(index);
      setSelection(null);
    }
  }

  function addComment(text: string) {
    if (draft === null) return;
    const block = blocks[draft.block];
    if (block === undefined) return;
    setDraft(null);
    regionRef.current?.focus({ preventScroll: true });
    const { block: first, endBlock, quote } = draft;
    const add = (lines: Lines) => {
      const comment: PlanComment = {
        id: newCommentId(),
        anchor: anchorFor(block, quote, lines),
        text,
      };
      latestComments.current = [...latestComments.current, comment];
      latestOnChange.current(latestComments.current);
    };
    // V1 budget: with the lines parsed (they are, once idle) the card shows in this click's own
    // render; a promise here, even a resolved one, would cost a microtask hop and a second render.
    const ready = linesIfReady(plan, blocks, first, endBlock, quote);
    if (ready !== null) {
      add(ready);
      return;
    }
    linesFor(plan, blocks, first, endBlock, quote).then(add, () => {
      // The plan's lines could not be parsed: the box comes back with the text and says so;
      // adding again parses again. A box opened meanwhile is left as it is.
      setDraft((open) => open ?? { block: first, quote, endBlock, failed: { text } });
    });
  }

  function cancelDraft() {
    setDraft(null);
    regionRef.current?.focus({ preventScroll: true });
  }

  const activeBlock = blocks[active];
  return (
    <div className="qcomments" data-layout={layout}>
      {gone.length > 0 && (
        <section className="qcomments-gone" aria-label={t("planReview.comments.gone")}>
          <p>{t("planReview.comments.gone")}</p>
          {gone.map((comment) =>
            comments.includes(comment) ? (
              <CommentCard
                key={comment.id}
                comment={comment}
                disabled={disabled}
                onUpdate={updateComment}
                onRemove={removeComment}
              />
            ) : (
              <EarlierCommentCard
                key={`e${comment.id}`}
                comment={comment}
                status="removed"
                revision={earlier?.revision ?? 1}
              />
            ),
          )}
        </section>
      )}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: pointer picking of a block; the keyboard has j/k and c on the plan region */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard path is j/k and c on the focusable plan region */}
      <div className="qcomments-plan" ref={planRef} onMouseUp={onPointerUp} onClick={onClick}>
        <Markdown text={plan} />
      </div>
      <div className="qcomments-layer" ref={layerRef}>
        {placed.map((item) => (
          <div
            key={item.key}
            className="qcomments-slot"
            data-block={item.block}
            data-kind={item.kind}
          >
            {item.kind === "comment" && (
              <CommentCard
                comment={item.comment}
                disabled={disabled}
                onUpdate={updateComment}
                onRemove={removeComment}
              />
            )}
            {item.kind === "earlier" && (
              <EarlierCommentCard
                comment={item.comment}
                status={item.status}
                revision={earlier?.revision ?? 1}
              />
            )}
            {item.kind === "draft" && draft !== null && (
              <CommentEditor
                quote={draft.quote}
                initial={draft.failed?.text}
                error={draft.failed && t("planReview.comments.linesFailed")}
                submitLabel={t("planReview.comments.save")}
                disabled={disabled}
                onSubmit={addComment}
                onCancel={cancelDraft}
              />
            )}
            {item.kind === "add" && (
              <button
                type="button"
                className="qbtn qbtn--small qcomments-add"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() =>
                  openDraft(
                    selection ?? {
                      block: active,
                      quote: blocks[active]?.text ?? "",
                      endBlock: active,
                    },
                  )
                }
              >
                {t(selection ? "planReview.comments.addSelection" : "planReview.comments.addBlock")}
              </button>
            )}
          </div>
        ))}
      </div>
      <p className="sr-only" aria-live="polite">
        {activeBlock
          ? t("planReview.comments.position", {
              index: active + 1,
              count: blocks.length,
              text: activeBlock.text.slice(0, 120),
            })
          : ""}
      </p>
    </div>
  );
}

/** Commented blocks are tinted, the picked one outlined; marks on blocks no longer meant go. */
function markBlocks(
  marked: Set<HTMLElement>,
  blocks: readonly DomBlock[],
  active: number,
  located: readonly number[],
  followUps: readonly { status: string; index: number }[],
) {
  const wanted = new Map<HTMLElement, string>();
  const mark = (index: number, value: string) => {
    for (const element of blocks[index]?.elements ?? []) {
      const before = wanted.get(element);
      wanted.set(element, before ? `${before} ${value}` : value);
    }
  };
  for (const index of located) if (index >= 0) mark(index, "comment");
  for (const found of followUps) if (found.index >= 0) mark(found.index, `earlier-${found.status}`);
  if (active >= 0) mark(active, "active");
  for (const element of marked) {
    if (!wanted.has(element)) {
      element.removeAttribute("data-qmark");
      element.style.removeProperty("margin-bottom");
      marked.delete(element);
    }
  }
  for (const [element, value] of wanted) {
    if (element.getAttribute("data-qmark") !== value) element.setAttribute("data-qmark", value);
    marked.add(element);
  }
}
