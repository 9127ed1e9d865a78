import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useId,
  useLayoutEffect,
  useMemo,
  useState,
} from "react";
import { lazyComponent } from "../layout/lazyComponent.tsx";
import { useAppStore } from "../store/store.ts";
import { insertMention, matchSessions, mentionAt } from "./sessionCompletion.ts";

// The listbox is drawn by its own chunk, fetched after the first screen (issue 15) or, before
// that, when the user first types `#sess_`.
const completionList = lazyComponent(() =>
  import("./SessionCompletionList.tsx").then((module) => module.SessionCompletionList),
);
const CompletionList = completionList.Component;
export const prefetchSessionCompletion = completionList.prefetch;

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
    <CompletionList
      listId={listId}
      choices={choices}
      activeIndex={activeIndex}
      optionId={optionId}
      onAccept={accept}
    />
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
