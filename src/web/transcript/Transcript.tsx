import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useClient } from "../client/ClientContext.tsx";
import { useAppStore } from "../store/store.ts";
import {
  AssistantMessage,
  ModeChangedLine,
  ModelChangedLine,
  NoticeLine,
  PlanApprovedCard,
  StreamingMessage,
  TurnEndedLine,
  UserMessage,
} from "./EntryViews.tsx";
import { ResolvedLine } from "./ResolvedLine.tsx";
import { ToolCallItem } from "./ToolCallItem.tsx";
import { type TranscriptItem, transcriptItems } from "./transcriptItems.ts";
import "./transcript.css";

const EMPTY: never[] = [];
const NEAR_BOTTOM_PX = 48;
// Rendering thousands of entries at once blocks the page for seconds; show the tail first.
export const TRANSCRIPT_PAGE = 150;
// What fills a screen: drawn with the rest of the page (and the question card), the rest of
// the window follows in a transition that a click can interrupt.
const FIRST_SCREEN = 40;

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
  const hasEarlier = useAppStore((s) => (s.views[sessionId]?.earlier ?? null) !== null);
  const loadingEarlier = useAppStore((s) => s.views[sessionId]?.loadingEarlier ?? false);
  const client = useClient();
  const items = useMemo(() => transcriptItems(entries), [entries]);
  const [shownCount, setShownCount] = useState(FIRST_SCREEN);
  const visibleItems = items.length > shownCount ? items.slice(items.length - shownCount) : items;
  const hiddenCount = items.length - visibleItems.length;
  const scroller = useRef<HTMLDivElement>(null);
  const stuckToBottom = useRef(true);
  const heightBeforeReveal = useRef<number | null>(null);

  // Revealing earlier items must keep the reader's place on screen, also when they come
  // from the server a moment after the click.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the window or the items grow
  useLayoutEffect(() => {
    const element = scroller.current;
    const previous = heightBeforeReveal.current;
    if (element && previous !== null && element.scrollHeight !== previous) {
      element.scrollTop += element.scrollHeight - previous;
      heightBeforeReveal.current = null;
    }
  }, [shownCount, items]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever content grows
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stuckToBottom.current) element.scrollTop = element.scrollHeight;
  }, [items, streaming, shownCount]);

  // A new session starts at the bottom again, with its first screen only.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the session only
  useLayoutEffect(() => {
    stuckToBottom.current = true;
    setShownCount(FIRST_SCREEN);
  }, [sessionId]);

  const moreThanAScreen = items.length > FIRST_SCREEN;
  useEffect(() => {
    if (moreThanAScreen && shownCount < TRANSCRIPT_PAGE) {
      startTransition(() => setShownCount((count) => Math.max(count, TRANSCRIPT_PAGE)));
    }
  }, [moreThanAScreen, shownCount]);

  return (
    <div
      className="transcript-scroller"
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        stuckToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
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
        {loaded && items.length === 0 && streaming === "" ? (
          <p className="transcript-empty">{t("transcript.empty")}</p>
        ) : null}
        {hiddenCount > 0 || hasEarlier ? (
          <button
            type="button"
            className="transcript-show-earlier"
            data-testid="transcript-show-earlier"
            aria-busy={hiddenCount === 0 && loadingEarlier}
            disabled={hiddenCount === 0 && loadingEarlier}
            onClick={() => {
              heightBeforeReveal.current = scroller.current?.scrollHeight ?? null;
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
      </section>
    </div>
  );
}
