import type { CountdownState } from "../../protocol/index.ts";
import { useTranslation } from "../i18n/useTranslation.tsx";
import { useServerNow } from "./useServerNow.ts";
import "./questions.css";

export interface CountdownChipProps {
  countdown: CountdownState;
  clockOffsetMs: number;
}

export function formatRemaining(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/**
 * A2–A4: silent during the grace period, then a live countdown drawn against server
 * time; "Paused" once the user has touched the question. Plan reviews never count.
 */
export function CountdownChip({ countdown, clockOffsetMs }: CountdownChipProps) {
  const { t } = useTranslation("question");
  const now = useServerNow(clockOffsetMs, countdown.phase === "counting");

  if (countdown.phase === "paused") {
    return (
      <span
        className="qchip-countdown qchip-countdown--paused"
        role="timer"
        aria-live="off"
        aria-label={t("countdown.pausedLabel")}
      >
        {t("countdown.paused")}
      </span>
    );
  }
  if (countdown.phase !== "counting" || now < countdown.visibleAt) return null;
  const time = formatRemaining(countdown.deadlineAt - now);
  return (
    <span
      className="qchip-countdown"
      role="timer"
      aria-live="off"
      aria-label={t("countdown.label", { time })}
    >
      {t("countdown.continuesIn", { time })}
    </span>
  );
}
