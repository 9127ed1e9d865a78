import { useEffect, useRef, useState } from "react";
import { useClient } from "../client/ClientContext.tsx";
import { QuestionComposer } from "../questions/QuestionComposer.tsx";
import type { PendingInteraction } from "../questions/types.ts";
import { appStore, useAppStore } from "../store/store.ts";
import { Composer } from "./Composer.tsx";
import { settledElsewhere } from "./settledElsewhere.ts";
import "./composer.css";

const EMPTY: PendingInteraction[] = [];
const ELSEWHERE_NOTICE_MS = 6_000;

/**
 * The bottom of the session: the head of the pending queue (Q7) above the message box.
 * The box stays mounted so "Chat about it" can hand focus back to it (I7).
 */
export function ComposerArea({ sessionId }: { sessionId: string }) {
  const client = useClient();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const pending = useAppStore((s) => s.views[sessionId]?.pending ?? EMPTY);
  const clockOffsetMs = useAppStore((s) => s.clockOffsetMs);
  const head = pending[0];
  const headId = head?.request.interactionId;
  const receipt = useAppStore((s) => (headId ? s.receipts[headId] : undefined));

  const actedHere = useRef(new Set<string>());
  const shown = useRef<PendingInteraction | null>(null);
  const [elsewhere, setElsewhere] = useState<PendingInteraction | null>(null);

  useEffect(() => {
    const previous = shown.current;
    shown.current = head ?? null;
    if (head) {
      setElsewhere(null);
      return;
    }
    if (!previous) return;
    const id = previous.request.interactionId;
    const resolved = appStore.getState().views[sessionId]?.resolved[id];
    if (settledElsewhere(resolved, actedHere.current.has(id))) setElsewhere(previous);
  }, [head, sessionId]);

  useEffect(() => {
    if (!elsewhere) return;
    const timer = setTimeout(() => setElsewhere(null), ELSEWHERE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [elsewhere]);

  const card = head ?? elsewhere;
  const act = (id: string) => actedHere.current.add(id);

  return (
    <div className="composer-area">
      {card ? (
        <div className="composer-card">
          <QuestionComposer
            key={card.request.interactionId}
            pending={card}
            waitingBehind={head ? pending.length - 1 : 0}
            clockOffsetMs={clockOffsetMs}
            receipt={head ? receipt : undefined}
            resolvedElsewhere={!head}
            onAnswer={(answers) => {
              act(card.request.interactionId);
              client.answer(card.request.interactionId, answers);
            }}
            onCancel={() => {
              act(card.request.interactionId);
              client.cancelInteraction(card.request.interactionId);
            }}
            onDecide={(decision) => {
              act(card.request.interactionId);
              client.decide(card.request.interactionId, decision);
            }}
            onTouch={() => client.touch(card.request.interactionId)}
            onDraft={(draft) => client.saveDraft(card.request.interactionId, draft)}
            focusComposer={() => inputRef.current?.focus()}
          />
        </div>
      ) : null}
      <Composer sessionId={sessionId} inputRef={inputRef} />
    </div>
  );
}
