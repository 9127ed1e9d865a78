import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { PermissionDecision, PermissionRequest } from "../../protocol/index.ts";
import { OfflineHint } from "../connection/OfflineHint.tsx";
import { ReceiptMessage } from "./ReceiptMessage.tsx";
import type { ReceiptView } from "./types.ts";
import { useOneShotLatch } from "./useOneShotLatch.ts";
import "./questions.css";

export interface PermissionCardProps {
  request: PermissionRequest;
  receipt?: ReceiptView;
  onDecide(decision: PermissionDecision): void;
}

/** A tool approval: the strip names the tool, the body shows what it acts on. */
export function PermissionCard({ request, receipt, onDecide }: PermissionCardProps) {
  const { t } = useTranslation("question");
  const { latched, rejection, fire } = useOneShotLatch(receipt);
  const titleId = useId();
  const decide = (decision: PermissionDecision) => fire(() => onDecide(decision));

  return (
    <section className="qcard qpermission" aria-labelledby={titleId}>
      <div id={titleId} className="qcard-strip qcard-strip--tool">
        {t("permission.title", { tool: request.toolName })}
      </div>
      <pre className="qpermission-summary">
        <code>{request.summary}</code>
      </pre>
      <OfflineHint held={latched} />
      {rejection !== null && <ReceiptMessage rejection={rejection} />}
      <div className="qcard-actions">
        <button type="button" className="qbtn" disabled={latched} onClick={() => decide("deny")}>
          {t("permission.deny")}
        </button>
        <button
          type="button"
          className="qbtn qbtn--primary"
          disabled={latched}
          onClick={() => decide("allow_once")}
        >
          {t("permission.allowOnce")}
        </button>
        <button
          type="button"
          className="qbtn"
          disabled={latched}
          onClick={() => decide("allow_always")}
        >
          {t("permission.allowAlways")}
        </button>
      </div>
    </section>
  );
}
