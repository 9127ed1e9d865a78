// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AutoContinuedNotice, type AutoContinuedNoticeProps } from "./AutoContinuedNotice.tsx";
import { renderWithI18n } from "./renderWithI18n.tsx";
import { databaseItem, namingItem, questionRequest } from "./testFixtures.ts";

function setup(extra: Partial<AutoContinuedNoticeProps> = {}) {
  const props: AutoContinuedNoticeProps = {
    request: questionRequest(databaseItem, namingItem),
    onAnswerNow: vi.fn(),
    ...extra,
  };
  const view = renderWithI18n(<AutoContinuedNotice {...props} />);
  const rerender = (more: Partial<AutoContinuedNoticeProps>) =>
    view.rerender(<AutoContinuedNotice {...props} {...more} />);
  return { props, rerender, user: userEvent.setup() };
}

describe("AutoContinuedNotice", () => {
  it("[A3] says the question continued without an answer", () => {
    setup();
    expect(screen.getByText("Unanswered — continued automatically")).toBeInTheDocument();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
  });

  it("[X2] opens the generic flow inline, without a countdown, and sends a late answer", async () => {
    const { props, rerender, user } = setup();
    await user.click(screen.getByRole("button", { name: "Answer now" }));
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Review answers" }));
    await user.click(screen.getByRole("button", { name: "Submit with 1 skipped" }));
    expect(props.onAnswerNow).toHaveBeenCalledWith({
      [databaseItem.question]: { labels: ["SQLite"] },
    });
    rerender({ receipt: { ok: true } });
    expect(screen.getByRole("status")).toHaveTextContent("late answer was sent");
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
  });

  it("[W11] focus goes to the message box once the late answer is sent, and back to Answer now when closed", async () => {
    const box = document.createElement("textarea");
    box.id = "composer-input";
    document.body.append(box);
    try {
      const { rerender, user } = setup();
      await user.click(screen.getByRole("button", { name: "Answer now" }));
      await user.click(screen.getByRole("button", { name: "Close late answer" }));
      expect(screen.getByRole("button", { name: "Answer now" })).toHaveFocus();
      await user.click(screen.getByRole("button", { name: "Answer now" }));
      await user.click(screen.getByRole("radio", { name: "SQLite" }));
      await user.click(screen.getByRole("button", { name: "Next" }));
      await user.click(screen.getByRole("button", { name: "Review answers" }));
      await user.click(screen.getByRole("button", { name: "Submit with 1 skipped" }));
      rerender({ receipt: { ok: true } });
      expect(box).toHaveFocus();
    } finally {
      box.remove();
    }
  });

  it("[X2] keeps the flow open with a message when the late answer is rejected", async () => {
    const { rerender, user } = setup();
    await user.click(screen.getByRole("button", { name: "Answer now" }));
    await user.click(screen.getByRole("radio", { name: "MySQL" }));
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Review answers" }));
    await user.click(screen.getByRole("button", { name: "Submit with 1 skipped" }));
    rerender({ receipt: { ok: false, code: "INVALID_ANSWER" } });
    expect(screen.getByRole("alert")).toHaveTextContent("did not accept");
    expect(screen.getByRole("button", { name: "Submit with 1 skipped" })).toBeEnabled();
  });

  it("[X2] closes without sending when nothing was answered", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Answer now" }));
    await user.click(screen.getByRole("button", { name: "Close late answer" }));
    expect(props.onAnswerNow).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Answer now" })).toBeInTheDocument();
  });
});
