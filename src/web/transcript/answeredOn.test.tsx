// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { InteractionOutcome } from "../../protocol/index.ts";
import { created, questionRequest, snapshotFrame, stored } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { Transcript } from "./Transcript.tsx";

function resolvedWith(outcome: InteractionOutcome, language: "en" | "zh-CN" = "en") {
  const frames = [
    snapshotFrame("s1", [
      stored(1, created),
      stored(2, { kind: "interaction.requested", request: questionRequest("q1") }),
      stored(3, { kind: "interaction.resolved", interactionId: "q1", outcome }),
    ]),
  ];
  return renderShell(<Transcript sessionId="s1" />, { frames, language });
}

const answers = { "Which database for q1?": { labels: ["Postgres"] } };

describe("who answered, in the transcript", () => {
  it("[U4] the resolved line names the device the answer came from", () => {
    resolvedWith({
      type: "answered",
      answers,
      auto: false,
      by: { deviceId: "d1", label: "Safari on iPhone" },
    });
    expect(screen.getByTestId("entry-resolved")).toHaveTextContent("Postgres");
    expect(screen.getByTestId("answered-on")).toHaveTextContent("on Safari on iPhone");
  });

  it("[U4] a decision given from a notification says so, in Chinese too", () => {
    resolvedWith(
      {
        type: "decided",
        decision: "allow_once",
        by: { deviceId: "d2", label: "Chrome on Android", via: "notification" },
      },
      "zh-CN",
    );
    expect(screen.getByTestId("answered-on")).toHaveTextContent("来自 Chrome（Android） 的通知");
  });

  it("[U4] a label made by another client is shown as it came, in Chinese too", () => {
    resolvedWith(
      {
        type: "answered",
        answers,
        auto: false,
        by: { deviceId: "d3", label: "Work laptop" },
      },
      "zh-CN",
    );
    expect(screen.getByTestId("answered-on")).toHaveTextContent("来自 Work laptop");
  });

  it("[U4] an answer from an unnamed device shows no device", () => {
    resolvedWith({ type: "answered", answers, auto: false });
    expect(screen.queryByTestId("answered-on")).not.toBeInTheDocument();
  });

  it("[S3][U4] an answer through a named token names the person, with or without a device", () => {
    resolvedWith({
      type: "answered",
      answers,
      auto: false,
      by: { deviceId: "d1", label: "Safari on iPhone", person: "Alice" },
    });
    expect(screen.getByTestId("answered-on")).toHaveTextContent("by Alice on Safari on iPhone");
  });

  it("[S3][U4] a person without a named device, in Chinese", () => {
    resolvedWith({ type: "cancelled", by: { deviceId: "", label: "", person: "Alice" } }, "zh-CN");
    expect(screen.getByTestId("answered-on")).toHaveTextContent("由 Alice 回答");
  });
});
