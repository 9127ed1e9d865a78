import { useTranslation } from "../i18n/useTranslation.tsx";
import type { SessionChoice } from "./sessionCompletion.ts";
import "./sessionCompletion.css";

export interface SessionCompletionListProps {
  listId: string;
  choices: readonly SessionChoice[];
  activeIndex: number;
  optionId(index: number): string;
  onAccept(id: string): void;
}

/** M4's listbox below the message box; the keys that drive it live on the textarea. */
export function SessionCompletionList({
  listId,
  choices,
  activeIndex,
  optionId,
  onAccept,
}: SessionCompletionListProps) {
  const { t } = useTranslation();
  const showList = choices.length > 0;
  return (
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
              onClick={() => onAccept(choice.id)}
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
  );
}
