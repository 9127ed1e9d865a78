import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import { isDrivenOverMcp, mcpClientOf } from "../../protocol/index.ts";
import { useClient } from "../client/ClientContext.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { takeComposerFocusRequest } from "../layout/composerFocus.ts";
import { useSessionModel } from "../models/useSessionModel.ts";
import { useAppStore } from "../store/store.ts";
import { type ComposerProblem, runComposerInput } from "./commands.ts";
import { useModeCycle } from "./cycleMode.ts";
import { HeldMessages } from "./HeldMessages.tsx";
import { MODE_CYCLE_HINT_ID, ModeChip } from "./ModeChip.tsx";
import { parseComposerInput } from "./parseComposerInput.ts";
import { useSessionCompletion } from "./sessionCompletionMenu.tsx";
import { useComposerDraft } from "./useComposerDraft.ts";
import { useRefusedPromptBack } from "./useRefusedPromptBack.ts";
import { useSessionMode } from "./useSessionMode.ts";

export const COMPOSER_INPUT_ID = "composer-input";

/** W1: the message box. Enter sends, Shift+Enter breaks the line, `/` starts a command. */
export function Composer({
  sessionId,
  inputRef,
}: {
  sessionId: string;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const { t } = useTranslation();
  const client = useClient();
  const { text, setText, clear } = useComposerDraft(sessionId, (draft) =>
    client.saveComposerDraft(sessionId, draft),
  );
  const [problem, setProblem] = useState<ComposerProblem | null>(null);
  const rememberSent = useRefusedPromptBack(text, setText);
  const online = useAppStore((s) => s.connection.status === "open");
  const running = useAppStore((s) => s.views[sessionId]?.running ?? false);
  const model = useSessionModel(sessionId);
  const mcpClient = model !== null && isDrivenOverMcp(model) ? mcpClientOf(model) : null;
  const mode = useSessionMode(sessionId);
  const nextMode = useModeCycle(sessionId, mode);
  const completion = useSessionCompletion({ sessionId, text, setText, inputRef });
  // W5: Esc, then Shift+Tab, moves focus back as it would anywhere else (no keyboard trap).
  const shiftTabLeaves = useRef(false);

  // W7: a message typed offline is held and sent on reconnect; commands need the connection.
  const submitText = (value: string) => {
    const outcome = runComposerInput(parseComposerInput(value), sessionId, client);
    if (outcome.sent) {
      rememberSent(value);
      clear();
      setProblem(null);
    } else {
      setProblem(outcome.problem ?? null);
    }
  };
  const submit = () => submitText(text);

  // W11: New session hands the keyboard straight to this box, with what was typed meanwhile:
  // as it mounts for a new session, or when the server hands back this empty one (W1).
  const openedByNewSession = useAppStore(
    (s) => !s.awaitingCreatedSession && s.selectedSessionId === sessionId,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: when New session's answer opens this box; the request is taken once
  useEffect(() => {
    if (!openedByNewSession) return;
    const typed = takeComposerFocusRequest();
    if (typed === undefined) return;
    if (typed.focused) inputRef.current?.focus();
    // A box handed back may hold text not yet saved as its draft: the typing goes after it.
    const whole = text + typed.text;
    if (typed.text !== "") setText(whole);
    if (typed.send && whole.trim() !== "") submitText(whole);
  }, [openedByNewSession]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (completion.onKeyDown(event)) return;
    const leaving = shiftTabLeaves.current;
    shiftTabLeaves.current = event.key === "Escape" || (leaving && event.key === "Shift");
    // P2: Shift+Tab cycles the mode (plan → build → edit → yolo); plain Tab still leaves the box.
    // An agent over MCP (X1) runs its own modes; there is none to cycle here.
    if (
      mcpClient === null &&
      !leaving &&
      event.key === "Tab" &&
      event.shiftKey &&
      !event.nativeEvent.isComposing
    ) {
      event.preventDefault();
      if (online) client.setMode(sessionId, nextMode());
      return;
    }
    // An IME uses Enter to confirm a candidate; that Enter is not a send.
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={COMPOSER_INPUT_ID} className="sr-only">
        {t("composer.label")}
      </label>
      <textarea
        id={COMPOSER_INPUT_ID}
        ref={inputRef}
        className="composer-input"
        data-testid="composer-input"
        data-yields-focus={text.trim() === "" ? "true" : undefined}
        rows={2}
        value={text}
        placeholder={
          !online
            ? t("composer.placeholderOffline")
            : mcpClient !== null
              ? t("composer.placeholderMcp", { client: mcpClient })
              : t("composer.placeholder")
        }
        aria-describedby={
          mcpClient === null ? `composer-hint ${MODE_CYCLE_HINT_ID}` : "composer-hint"
        }
        aria-invalid={problem ? true : undefined}
        {...completion.inputProps}
        onChange={(event) => {
          setText(event.target.value);
          completion.trackCaret(event.target);
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
      />
      {completion.menu}
      <HeldMessages sessionId={sessionId} />
      {problem ? (
        <p className="composer-problem" role="alert">
          {problem.vars ? t(problem.key, problem.vars) : t(problem.key)}
        </p>
      ) : null}
      <div className="composer-bar">
        {mcpClient === null ? <ModeChip mode={mode} /> : null}
        <span id="composer-hint" className="composer-hint">
          {t("composer.hint")}
        </span>
        {running ? (
          <button
            type="button"
            className="btn btn--danger"
            data-testid="composer-stop"
            disabled={!online}
            onClick={() => {
              client.cancelTurn(sessionId);
              // W11: Stop disappears with the turn; the box is where the user goes on.
              inputRef.current?.focus();
            }}
          >
            {t("composer.stop")}
          </button>
        ) : null}
        <button type="submit" className="btn btn--primary" data-testid="composer-send">
          {t("composer.send")}
        </button>
      </div>
    </form>
  );
}
