import { useShallow } from "zustand/react/shallow";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { heldMessagesFor } from "../store/outbox.ts";
import { useAppStore } from "../store/store.ts";

/** W7: messages sent while offline, waiting in the outbox for the connection. */
export function HeldMessages({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const held = useAppStore(useShallow((s) => heldMessagesFor(s.outbox, sessionId)));
  if (held.length === 0) return null;
  return (
    <div className="composer-held" role="status" data-testid="held-messages">
      <p>{t("outbox.heldMessages", { count: held.length })}</p>
      <ul>
        {held.map((text, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the same text may be held twice
          <li key={index}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
