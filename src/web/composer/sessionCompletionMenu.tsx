import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useId,
  useLayoutEffect,
  useMemo,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { useAppStore } from "../store/store.ts";
import { insertMention, matchSessions, mentionAt } from "./sessionCompletion.ts";
import "./sessionCompletion.css";

export interface SessionCompletion {
  /** Spread on the textarea: it stays a textbox that controls the listbox. */
  inputProps: {
    "aria-autocomplete": "list";
    "aria-controls"?: string;
    "aria-activedescendant"?: string;
    onSelect(event: { currentTarget: HTMLTextAreaElement }): void;
  };
  /** Call from onChange with the textarea, so the caret is known. */
  trackCaret(input: HTMLTextAreaElement): void;
  /** Call first in onKeyDown; true when the key was used by the completion. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  menu: ReactNode;
}

/**
 * M4: typing `#sess_` in the composer offers the other sessions (title and id) in a listbox
 * below the box. Arrow keys move, Enter or Tab inserts, Escape closes; the focus stays in
 * the textarea throughout, the active option is announced through aria-activedescendant.
 */
export function useSessionCompletion(options: {
  sessionId: string;
  text: string;
  setText(text: string): void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}): SessionCompletion {
  const { sessionId, text, setText, inputRef } = options;
  const { t } = useTranslation();
  const listId = useId();
  const sessions = useAppStore((s) => s.sessions);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedText, setDismissedText] = useState<string | null>(null);
  const [placeCaret, setPlaceCaret] = useState<number | null>(null);

  const mention = mentionAt(text, caret);
  const open = mention !== undefined && text !== dismissedText;
  const query = mention?.query;
  const choices = useMemo(
    () => (query === undefined ? [] : matchSessions(Object.values(sessions), query, sessionId)),
    [sessions, query, sessionId],
  );
  const activeIndex = Math.min(active, Math.max(0, choices.length - 1));
  const optionId = (index: number) => `${listId}-option-${index}`;

  useLayoutEffect(() => {
    if (placeCaret === null) return;
    inputRef.current?.setSelectionRange(placeCaret, placeCaret);
    setPlaceCaret(null);
  }, [placeCaret, inputRef]);

  const accept = (id: string) => {
    if (!mention) return;
    const next = insertMention(text, mention, id);
    setText(next.text);
    setCaret(next.caret);
    setPlaceCaret(next.caret);
    setActive(0);
    inputRef.current?.focus();
  };

  const trackCaret = (input: HTMLTextAreaElement) => {
    if (input.selectionStart !== caret) setActive(0);
    setCaret(input.selectionStart);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    if (event.key === "Escape") {
      event.preventDefault();
      setDismissedText(text);
      return true;
    }
    const chosen = choices[activeIndex];
    if (!chosen) return false;
    switch (event.key) {
      case "ArrowDown":
        setActive((activeIndex + 1) % choices.length);
        break;
      case "ArrowUp":
        setActive((activeIndex - 1 + choices.length) % choices.length);
        break;
      case "Enter":
      case "Tab":
        if (event.shiftKey) return false;
        accept(chosen.id);
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  const showList = open && choices.length > 0;
  const menu = open ? (
    <div className="session-completion" data-testid="session-completion">
      {showList ? (
        <div
          id={listId}
          role="listbox"
          className="session-completion-list"
          aria-label={t("sessionMention.label")}
        >
          {choices.map((choice, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keys live on the textarea (aria-activedescendant)
            <div
              key={choice.id}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === activeIndex}
              className="session-completion-option"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => accept(choice.id)}
            >
              <span className="session-completion-title">
                {choice.title || t("sessions.untitled")}
              </span>
              <span className="session-completion-id">{choice.id}</span>
            </div>
          ))}
        </div>
      ) : null}
      <p className="sr-only" role="status">
        {showList
          ? t("sessionMention.matches", { count: choices.length })
          : t("sessionMention.none")}
      </p>
      {showList ? null : (
        <p className="session-completion-empty" aria-hidden="true">
          {t("sessionMention.none")}
        </p>
      )}
    </div>
  ) : null;

  return {
    inputProps: {
      "aria-autocomplete": "list",
      ...(showList
        ? { "aria-controls": listId, "aria-activedescendant": optionId(activeIndex) }
        : {}),
      onSelect: (event) => trackCaret(event.currentTarget),
    },
    trackCaret,
    onKeyDown,
    menu,
  };
}
