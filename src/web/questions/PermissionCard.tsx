import { useId, useMemo, useRef } from "react";
import type { PermissionDecision, PermissionRequest } from "../../protocol/index.ts";
import { OfflineHint } from "../connection/OfflineHint.tsx";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { PlanChanges } from "./PlanChanges.tsx";
import { type PermissionEffect, permissionEffectOf } from "./permissionEffect.ts";
import { ReceiptMessage } from "./ReceiptMessage.tsx";
import type { ReceiptView } from "./types.ts";
import { useClaimFocus } from "./useClaimFocus.ts";
import { useOneShotLatch } from "./useOneShotLatch.ts";
import "./questions.css";

export interface PermissionCardProps {
  request: PermissionRequest;
  receipt?: ReceiptView;
  onDecide(decision: PermissionDecision): void;
}

/**
 * A tool approval: the strip names the tool, the body shows what it acts on and, for W13,
 * what it would do: a Write's new content, an Edit's diff, a command in full.
 */
export function PermissionCard({ request, receipt, onDecide }: PermissionCardProps) {
  const { t } = useTranslation("question");
  const { latched, rejection, fire } = useOneShotLatch(receipt);
  const titleId = useId();
  const cardRef = useRef<HTMLElement>(null);
  // W11: the card, not a button, takes focus: Enter on a focused Allow would be an accident.
  useClaimFocus(cardRef);
  const effect = useMemo(() => permissionEffectOf(request.input), [request.input]);
  const effectLabel = (shown: PermissionEffect) =>
    shown.kind === "write"
      ? t("permission.newContent", { path: shown.path })
      : shown.kind === "edit"
        ? t("permission.diff", { path: shown.path })
        : t("permission.command");
  const decide = (decision: PermissionDecision) => fire(() => onDecide(decision));

  return (
    <section ref={cardRef} className="qcard qpermission" aria-labelledby={titleId} tabIndex={-1}>
      <div id={titleId} className="qcard-strip qcard-strip--tool">
        {t("permission.title", { tool: request.toolName })}
      </div>
      {effect?.kind === "command" ? null : (
        <pre className="qpermission-summary">
          <code>{request.summary}</code>
        </pre>
      )}
      {effect !== null && (
        <section
          className="qpermission-effect qcard-scroll"
          aria-label={effectLabel(effect)}
          data-testid="permission-effect"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboard users can scroll it
          tabIndex={0}
        >
          {effect.kind === "edit" ? (
            <>
              {effect.replaceAll && (
                <p className="qpermission-note">{t("permission.replaceAll")}</p>
              )}
              <PlanChanges before={effect.before} after={effect.after} />
            </>
          ) : (
            <pre className="qpermission-content">
              <code>{effect.kind === "write" ? effect.content : effect.command}</code>
            </pre>
          )}
        </section>
      )}
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
