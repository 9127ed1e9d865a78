import { useEffect, useRef } from "react";
import { useClient } from "../client/ClientContext.tsx";
import { takeComposerFocusRequest } from "../layout/composerFocus.ts";
import { NextStepHint } from "../questions/NextStepHint.tsx";
import { QuestionComposer } from "../questions/QuestionComposer.tsx";
import type { PendingInteraction } from "../questions/types.ts";
import { useShownCard } from "../questions/useShownCard.ts";
import { useAppStore } from "../store/store.ts";
import { Composer } from "./Composer.tsx";
import "./composer.css";

const EMPTY: PendingInteraction[] = [];

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
  const { card, elsewhere, markActed, showNext } = useShownCard(sessionId, head);

  // W11: New session hands the keyboard straight to the message box.
  useEffect(() => {
    if (takeComposerFocusRequest()) inputRef.current?.focus();
  }, []);

  // W11: a decision moves focus on to the message box, which yields it to any next card.
  const act = (id: string) => {
    markActed(id);
    inputRef.current?.focus();
  };

  return (
    <div className="composer-area">
      {card ? (
        <div className="composer-card">
          <QuestionComposer
            key={card.request.interactionId}
            pending={card}
            waitingBehind={elsewhere ? 0 : pending.length - 1}
            clockOffsetMs={clockOffsetMs}
            receipt={elsewhere ? undefined : receipt}
            resolvedElsewhere={elsewhere}
            onShowNext={elsewhere && head ? showNext : undefined}
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
      ) : (
        <NextStepHint sessionId={sessionId} />
      )}
      <Composer sessionId={sessionId} inputRef={inputRef} />
    </div>
  );
}
