import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { DEMO_MODEL } from "../../protocol/drivers.ts";
import { useClient } from "../client/ClientContext.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { whenIdle } from "../layout/whenIdle.ts";
import { useAppStore } from "../store/store.ts";
import {
  AssistantMessage,
  ModeChangedLine,
  ModelChangedLine,
  NoticeLine,
  PlanApprovedCard,
  StreamingMessage,
  TurnEndedLine,
  TurnStoppedLine,
  UserMessage,
} from "./EntryViews.tsx";
import { PlanDecidedCard } from "./PlanDecidedCard.tsx";
import { ResolvedLine } from "./ResolvedLine.tsx";
import { ToolCallItem } from "./ToolCallItem.tsx";
import { type TranscriptItem, transcriptItems } from "./transcriptItems.ts";
import { useReaderScrolling } from "./useReaderScrolling.ts";
import "./transcript.css";

const EMPTY: never[] = [];
const NO_REQUESTS = {};
const NEAR_BOTTOM_PX = 48;
// Rendering thousands of entries at once blocks the page for seconds; show the tail first.
export const TRANSCRIPT_PAGE = 150;
// What fills a screen: drawn with the rest of the page (and the question card), the rest of
// the window follows when the page is next idle, or after this long if it never is.
const FIRST_SCREEN = 40;
const REST_OF_WINDOW_TIMEOUT_MS = 1000;

/** An item by its seq, and how far below the top of the scroller it sits. */
interface Anchor {
  seq: number;
  offset: number;
}

// Every item view's root element carries the `entry` class, in the order of `visibleItems`.
const ITEM_SELECTOR = ":scope > .transcript > .entry";

function offsetIn(scroller: HTMLElement, node: HTMLElement): number {
  return node.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
}

function firstInView(
  scroller: HTMLElement | null,
  items: readonly TranscriptItem[],
): Anchor | null {
  if (!scroller) return null;
  const nodes = scroller.querySelectorAll<HTMLElement>(ITEM_SELECTOR);
  for (let index = 0; index < items.length; index++) {
    const node = nodes[index];
    if (!node) break;
    const offset = offsetIn(scroller, node);
    if (offset + node.offsetHeight > 0) return { seq: items[index]!.seq, offset };
  }
  return null;
}

function Item({ item, sessionId }: { item: TranscriptItem; sessionId: string }) {
  switch (item.kind) {
    case "user":
      return <UserMessage entry={item.entry} />;
    case "assistant":
      return <AssistantMessage entry={item.entry} />;
    case "tool":
      return <ToolCallItem call={item.call} result={item.result} />;
    case "notice":
      return <NoticeLine entry={item.entry} />;
    case "turnEnded":
      return <TurnEndedLine entry={item.entry} />;
    case "resolved":
      return (
        <ResolvedLine
          sessionId={sessionId}
          interactionId={item.entry.interactionId}
          outcome={item.entry.outcome}
        />
      );
    case "planDecided":
      return <PlanDecidedCard decided={item.decided} saved={item.saved} />;
    case "planApproved":
      return <PlanApprovedCard entry={item.entry} />;
    case "modeChanged":
      return <ModeChangedLine entry={item.entry} />;
    case "modelChanged":
      return <ModelChangedLine entry={item.entry} />;
  }
}

export function Transcript({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const loaded = useAppStore((s) => s.views[sessionId] !== undefined);
  const entries = useAppStore((s) => s.views[sessionId]?.entries ?? EMPTY);
  const streaming = useAppStore((s) => s.views[sessionId]?.streaming ?? "");
  const stopped = useAppStore((s) => s.views[sessionId]?.stopped ?? null);
  const hasEarlier = useAppStore((s) => (s.views[sessionId]?.earlier ?? null) !== null);
  const loadingEarlier = useAppStore((s) => s.views[sessionId]?.loadingEarlier ?? false);
  // The keyless default: a newcomer learns what the scripted agent answers to.
  const demo = useAppStore((s) => s.sessions[sessionId]?.model === DEMO_MODEL);
  const client = useClient();
  const requests = useAppStore((s) => s.views[sessionId]?.requests ?? NO_REQUESTS);
  const items = useMemo(() => transcriptItems(entries, requests), [entries, requests]);
  const [shownCount, setShownCount] = useState(FIRST_SCREEN);
  const visibleItems = items.length > shownCount ? items.slice(items.length - shownCount) : items;
  const hiddenCount = items.length - visibleItems.length;
  const scroller = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);
  const lastScrollTop = useRef(0);
  const anchor = useRef<Anchor | null>(null);
  const readerScrolling = useReaderScrolling(scroller);

  // Revealing earlier items must keep the reader's place on screen, also when they come
  // from the server a moment after the click: the item that was first in view stays put.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the window or the items grow
  useLayoutEffect(() => {
    const element = scroller.current;
    const held = anchor.current;
    if (!element || !held) return;
    const index = visibleItems.findIndex((item) => item.seq === held.seq);
    const node = element.querySelectorAll<HTMLElement>(ITEM_SELECTOR)[index];
    if (node) element.scrollTop += offsetIn(element, node) - held.offset;
    if (!loadingEarlier) anchor.current = null;
  }, [shownCount, items, loadingEarlier]);

  // Stick to the bottom from a ResizeObserver, which runs after the frame's own layout: reading
  // scrollHeight right after a commit forced a whole-page layout into the task that shows a
  // card (tens of ms on a long plan). It also follows the scroller shrinking under a new card.
  useEffect(() => {
    const element = scroller.current;
    const content = element?.firstElementChild;
    if (!element || !content || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stuckToBottom.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    observer.observe(content);
    return () => observer.disconnect();
  }, []);

  // A new session starts at the bottom again, with its first screen only.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the session only
  useLayoutEffect(() => {
    stuckToBottom.current = true;
    setShownCount(FIRST_SCREEN);
  }, [sessionId]);

  // A window that draws nothing (its entries all bookkeeping, one huge reply before them) is
  // not an empty session: what it stands for is fetched as a click on Show earlier would.
  const drawsNothing = loaded && items.length === 0 && streaming === "";
  useEffect(() => {
    if (drawsNothing && hasEarlier && !loadingEarlier) client.loadEarlier(sessionId);
  }, [drawsNothing, hasEarlier, loadingEarlier, client, sessionId]);

  // Preact runs a transition at once: drawn in the task after the first frame, the rest of the
  // window kept a waiting question's card from answering a click for ≈35 ms (issue 15, new tab
  // to a long session). Idle time comes after that task.
  const moreThanAScreen = items.length > FIRST_SCREEN;
  useEffect(() => {
    if (!moreThanAScreen || shownCount >= TRANSCRIPT_PAGE) return;
    let cancelled = false;
    whenIdle(() => {
      if (!cancelled) setShownCount((count) => Math.max(count, TRANSCRIPT_PAGE));
    }, REST_OF_WINDOW_TIMEOUT_MS);
    return () => {
      cancelled = true;
    };
  }, [moreThanAScreen, shownCount]);

  return (
    <div
      className="transcript-scroller"
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
        // Content may grow between our scroll to the bottom and its scroll event, and the
        // browser moves the offset itself as the scroller resizes: only the reader moving up
        // lets go of the bottom.
        if (atBottom) stuckToBottom.current = true;
        else if (el.scrollTop < lastScrollTop.current && readerScrolling()) {
          stuckToBottom.current = false;
        }
        lastScrollTop.current = el.scrollTop;
      }}
    >
      <section
        className="transcript"
        data-testid="transcript"
        aria-labelledby="transcript-heading"
        role="log"
        aria-relevant="additions"
      >
        <h2 id="transcript-heading" className="sr-only">
          {t("transcript.label")}
        </h2>
        {!loaded ? <p className="transcript-empty">{t("transcript.loading")}</p> : null}
        {drawsNothing && !hasEarlier ? (
          <p className="transcript-empty">{t("transcript.empty")}</p>
        ) : null}
        {drawsNothing && !hasEarlier && demo ? (
          <p className="transcript-empty transcript-demo">{t("transcript.demoHint")}</p>
        ) : null}
        {hiddenCount > 0 || hasEarlier ? (
          <button
            type="button"
            className="transcript-show-earlier"
            data-testid="transcript-show-earlier"
            aria-busy={hiddenCount === 0 && loadingEarlier}
            disabled={hiddenCount === 0 && loadingEarlier}
            onClick={() => {
              anchor.current = firstInView(scroller.current, visibleItems);
              setShownCount((count) => Math.min(count, items.length) + TRANSCRIPT_PAGE);
              // The server holds the rest: fetch the next page once the loaded items run out.
              if (hiddenCount <= TRANSCRIPT_PAGE && hasEarlier) client.loadEarlier(sessionId);
            }}
          >
            {t("transcript.showEarlier")}
          </button>
        ) : null}
        {visibleItems.map((item) => (
          <Item key={item.seq} item={item} sessionId={sessionId} />
        ))}
        {streaming !== "" ? <StreamingMessage text={streaming} /> : null}
        {stopped !== null ? <TurnStoppedLine code={stopped} /> : null}
      </section>
    </div>
  );
}
