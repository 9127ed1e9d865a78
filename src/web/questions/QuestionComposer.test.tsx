// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuestionComposer } from "./QuestionComposer.tsx";
import { renderWithI18n, type TestLanguage } from "./renderWithI18n.tsx";
import {
  composerCallbacks,
  composerProps,
  databaseItem,
  pendingOf,
  questionRequest,
  reviewItem,
  writeRequest,
} from "./testFixtures.ts";
import type { QuestionComposerProps } from "./types.ts";

function setup(
  pending: QuestionComposerProps["pending"],
  extra: Partial<QuestionComposerProps> = {},
  lng: TestLanguage = "en",
) {
  const props = composerProps(pending, composerCallbacks(), extra);
  const view = renderWithI18n(<QuestionComposer {...props} />, lng);
  return { props, view, user: userEvent.setup() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("QuestionComposer", () => {
  it("[I8] gives a claimed plan review to the card, not the generic flow", () => {
    setup(pendingOf(questionRequest(reviewItem)));
    expect(screen.getByRole("region", { name: reviewItem.question })).toBeInTheDocument();
    expect(screen.getByText("Plan review")).toBeInTheDocument();
    expect(
      screen.queryByRole("region", { name: "Questions from the agent" }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
  });

  it("[I8] gives an ordinary question to the generic flow, not the card", () => {
    setup(pendingOf(questionRequest(databaseItem)));
    expect(screen.getByRole("region", { name: "Questions from the agent" })).toBeInTheDocument();
    expect(screen.queryByText("Plan review")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
  });

  it("[I4] falls back to the generic flow for a plan review the card cannot answer", () => {
    const threeWay = {
      ...reviewItem,
      options: [...reviewItem.options, { label: "Split it" }],
    };
    setup(pendingOf(questionRequest(threeWay)));
    expect(screen.queryByText("Plan review")).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Split it" })).toBeInTheDocument();
  });

  it("[I8] wires the card's Approve to onAnswer", async () => {
    const { props, user } = setup(pendingOf(questionRequest(reviewItem)));
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: { labels: ["Go ahead"], review: { option: "default" } },
    });
  });

  it("[Q7] says how many interactions wait behind the head", () => {
    setup(pendingOf(questionRequest(databaseItem)), { waitingBehind: 2 });
    expect(screen.getByText("2 more waiting")).toBeInTheDocument();
  });

  it("[Q7] uses the singular for one waiting interaction", () => {
    setup(pendingOf(questionRequest(databaseItem)), { waitingBehind: 1 });
    expect(screen.getByText("1 more waiting")).toBeInTheDocument();
  });

  it("[Q7] shows no queue hint when nothing waits", () => {
    setup(pendingOf(questionRequest(databaseItem)));
    expect(screen.queryByText(/more waiting/)).not.toBeInTheDocument();
  });

  it("[Q7] shows the queue hint in zh-CN", () => {
    setup(pendingOf(questionRequest(databaseItem)), { waitingBehind: 3 }, "zh-CN");
    expect(screen.getByText("还有 3 项等待中")).toBeInTheDocument();
  });

  it("[A2] shows the countdown on a generic question", () => {
    const now = Date.now();
    setup(
      pendingOf(questionRequest(databaseItem), {
        countdown: {
          phase: "counting",
          startedAt: now - 70_000,
          visibleAt: now - 10_000,
          deadlineAt: now + 230_000,
        },
      }),
    );
    expect(screen.getByRole("timer")).toHaveTextContent(/Continues in 3:5\d/);
  });

  it("[P12] never shows a countdown on a plan review", () => {
    const now = Date.now();
    setup(
      pendingOf(questionRequest(reviewItem), {
        countdown: {
          phase: "counting",
          startedAt: now - 70_000,
          visibleAt: now - 10_000,
          deadlineAt: now + 230_000,
        },
      }),
    );
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
  });

  it("[A4] passes the first touch of a generic question through", async () => {
    const { props, user } = setup(pendingOf(questionRequest(databaseItem)));
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    expect(props.onTouch).toHaveBeenCalledTimes(1);
  });

  it("[I8] renders a tool approval as the permission card", async () => {
    const { props, user } = setup(pendingOf(writeRequest));
    expect(screen.getByRole("region", { name: "Allow Write?" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(props.onDecide).toHaveBeenCalledWith("allow_once");
  });

  it("[X3] shows Answered elsewhere instead of the card when another tab settled it", () => {
    setup(pendingOf(questionRequest(databaseItem)), { resolvedElsewhere: true, waitingBehind: 1 });
    expect(screen.getByRole("status")).toHaveTextContent("Answered elsewhere");
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
  });

  it("[I8] starts a fresh card for the next interaction in the queue", async () => {
    const first = questionRequest(databaseItem);
    const second = { ...questionRequest(databaseItem), interactionId: "int-9" };
    const { props, view, user } = setup(pendingOf(first));
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    view.rerender(<QuestionComposer {...props} pending={pendingOf(second)} />);
    expect(screen.getByRole("radio", { name: "SQLite" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Submit" })).toBeEnabled();
  });
});
