import { useRef } from "react";
import { useClient } from "../client/ClientContext.tsx";
import { TeardownScope } from "../layout/teardown.tsx";
import { leavingProps } from "../layout/useLeaving.ts";
import { NextStepHint } from "../questions/NextStepHint.tsx";
import { QuestionComposer } from "../questions/QuestionComposer.tsx";
import type { PendingInteraction } from "../questions/types.ts";
import { useShownCard } from "../questions/useShownCard.ts";
import { useAppStore } from "../store/store.ts";
import { Composer } from "./Composer.tsx";
import { useLeavingCards } from "./useLeavingCards.ts";
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
  const { mounted, left } = useLeavingCards(card, elsewhere);

  // W11: a decision moves focus on to the message box, which yields it to any next card.
  const act = (id: string) => {
    markActed(id);
    inputRef.current?.focus();
  };

  return (
    <div className="composer-area">
      {mounted.map((item) => {
        const { each, key, isLeaving } = item;
        const { pending: shown, elsewhere: isNotice } = each;
        const id = shown.request.interactionId;
        // One element type and key whether shown or leaving, so React keeps the card mounted.
        return (
          <div className="composer-card" key={key} {...leavingProps(item)}>
            <TeardownScope leaving={isLeaving} onDone={() => left(key)}>
              <QuestionComposer
                key={id}
                pending={shown}
                waitingBehind={isLeaving || elsewhere ? 0 : pending.length - 1}
                clockOffsetMs={clockOffsetMs}
                receipt={isLeaving || elsewhere ? undefined : receipt}
                resolvedElsewhere={isNotice}
                onShowNext={isNotice && head ? showNext : undefined}
                onAnswer={(answers) => {
                  act(id);
                  client.answer(id, answers);
                }}
                onCancel={() => {
                  act(id);
                  client.cancelInteraction(id);
                }}
                onDecide={(decision) => {
                  act(id);
                  client.decide(id, decision);
                }}
                onTouch={() => client.touch(id)}
                onDraft={(draft) => client.saveDraft(id, draft)}
                focusComposer={() => inputRef.current?.focus()}
              />
            </TeardownScope>
          </div>
        );
      })}
      {!card && <NextStepHint sessionId={sessionId} />}
      <Composer sessionId={sessionId} inputRef={inputRef} />
    </div>
  );
}
