import { useEffect, useRef } from "react";
import { useTranslation } from "../i18n/useTranslation.tsx";

const SHORTCUTS = [
  ["j", "help.next"],
  ["k", "help.previous"],
  ["Enter", "help.open"],
  ["?", "help.toggle"],
] as const;

/** U1: the triage keys, shown on `?`; focus returns to where it was when it closes. */
export function InboxHelp({ onClose }: { onClose(): void }) {
  const { t } = useTranslation("inbox");
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const previous = document.activeElement;
    closeRef.current?.focus();
    return () => {
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, []);
  return (
    <div className="inbox-help" role="dialog" aria-labelledby="inbox-help-title">
      <h3 id="inbox-help-title" className="inbox-help-title">
        {t("help.title")}
      </h3>
      <dl className="inbox-help-keys">
        {SHORTCUTS.map(([key, label]) => (
          <div key={key} className="inbox-help-row">
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{t(label)}</dd>
          </div>
        ))}
      </dl>
      <button ref={closeRef} type="button" className="btn" onClick={onClose}>
        {t("help.close")}
      </button>
    </div>
  );
}
