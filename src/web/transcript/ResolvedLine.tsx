import { memo } from "react";
import type { AnsweredBy, InteractionOutcome, QuestionAnswers } from "../../protocol/index.ts";
import { useClient } from "../client/ClientContext.tsx";
import { deviceLabelParts } from "../device/deviceIdentity.ts";
import type { TFunction } from "../i18n/translator.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { AutoContinuedNotice } from "../questions/AutoContinuedNotice.tsx";
import { useAppStore } from "../store/store.ts";

export function formatAnswers(answers: QuestionAnswers): string {
  return Object.values(answers)
    .map((answer) => [...answer.labels, ...(answer.other ? [answer.other] : [])].join(", "))
    .filter((text) => text !== "")
    .join("; ");
}

function OutcomeText({ outcome }: { outcome: InteractionOutcome }) {
  const { t } = useTranslation();
  switch (outcome.type) {
    case "answered": {
      const text = formatAnswers(outcome.answers);
      return (
        <>
          {text ? t("interaction.answered", { answers: text }) : t("interaction.answeredNothing")}
        </>
      );
    }
    case "decided":
      return <>{t(`interaction.decided.${outcome.decision}`)}</>;
    case "cancelled":
      return <>{t("interaction.dismissed")}</>;
    case "aborted":
      return <>{t("interaction.aborted", { reason: outcome.reason })}</>;
  }
}

/** How an interaction ended, as one quiet line; an auto-continued question can still be answered (X2). */
export const ResolvedLine = memo(function ResolvedLine({
  sessionId,
  interactionId,
  outcome,
}: {
  sessionId: string;
  interactionId: string;
  outcome: InteractionOutcome;
}) {
  const { t } = useTranslation();
  const client = useClient();
  const request = useAppStore((s) => s.views[sessionId]?.requests[interactionId]);
  const receipt = useAppStore((s) => s.receipts[interactionId]);
  const auto = outcome.type === "answered" && outcome.auto;
  if (auto && request?.kind === "question") {
    return (
      <div className="entry entry-resolved entry-resolved--auto" data-testid="entry-resolved">
        <AutoContinuedNotice
          request={request}
          receipt={receipt}
          onAnswerNow={(answers) => client.lateAnswer(interactionId, answers)}
        />
      </div>
    );
  }
  const by = "by" in outcome ? outcome.by : undefined;
  return (
    <p className="entry entry-resolved" data-testid="entry-resolved">
      {auto ? t("interaction.autoContinued") : <OutcomeText outcome={outcome} />}
      {by ? (
        <span className="entry-resolved-by" data-testid="answered-on">
          {" · "}
          {t(answeredByKey(by), { device: localizedDevice(by.label, t), person: by.person })}
        </span>
      ) : null}
    </p>
  );
});

/** U4: "Chrome on Android" in the reader's language; a label made elsewhere stays as given. */
function localizedDevice(label: string, t: TFunction): string {
  const parts = deviceLabelParts(label);
  if (!parts) return label;
  const browser = parts.anyBrowser ? t("device.anyBrowser") : parts.browser;
  return parts.system === undefined
    ? browser
    : t("device.browserOnSystem", { browser, system: parts.system });
}

/** U4/S3: the device alone, the person alone, or both, and whether a notification carried it. */
function answeredByKey(by: AnsweredBy) {
  const fromNotification = by.via === "notification";
  if (by.person === undefined)
    return fromNotification ? "interaction.answeredFromNotification" : "interaction.answeredOn";
  if (by.label === "") return "interaction.answeredBy";
  return fromNotification ? "interaction.answeredByFromNotification" : "interaction.answeredByOn";
}
