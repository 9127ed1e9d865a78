// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { AskUserQuestionItem } from "../../protocol/index.ts";
import { PlanReviewPanel, type PlanReviewPanelProps } from "./PlanReviewPanel.tsx";
import { planReviewOf } from "./planReviewOf.ts";
import { renderWithI18n, type TestLanguage } from "./renderWithI18n.tsx";
import { questionRequest, reviewItem } from "./testFixtures.ts";

function reviewFrom(item: AskUserQuestionItem) {
  const review = planReviewOf(questionRequest(item));
  if (review === null) throw new Error("fixture is not a plan review");
  return review;
}

function setup(
  item: AskUserQuestionItem = reviewItem,
  extra: Partial<PlanReviewPanelProps> = {},
  lng: TestLanguage = "en",
) {
  const props: PlanReviewPanelProps = {
    review: reviewFrom(item),
    onAnswer: vi.fn(),
    onCancel: vi.fn(),
    onDraft: vi.fn(),
    focusComposer: vi.fn(),
    ...extra,
  };
  const view = renderWithI18n(<PlanReviewPanel {...props} />, lng);
  const rerender = (more: Partial<PlanReviewPanelProps>) =>
    view.rerender(<PlanReviewPanel {...props} {...more} />);
  return { props, rerender, user: userEvent.setup() };
}

describe("PlanReviewPanel", () => {
  it("[I5] shows the amber strip and renders the plan as markdown", () => {
    setup();
    expect(screen.getByText("Plan review")).toBeInTheDocument();
    const body = screen.getByRole("region", { name: "Plan" });
    expect(within(body).getByRole("heading", { name: "Steps" })).toBeInTheDocument();
    expect(within(body).getByRole("table")).toBeInTheDocument();
    expect(within(body).getByRole("cell", { name: "db.ts" })).toBeInTheDocument();
  });

  it("[I5] lets keyboard users focus the scrolling plan body", () => {
    setup();
    expect(screen.getByRole("region", { name: "Plan" })).toHaveAttribute("tabindex", "0");
  });

  it("[I5] names the card with the question text instead of showing it as a headline", () => {
    setup();
    const card = screen.getByRole("region", { name: reviewItem.question });
    expect(card).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: reviewItem.question })).not.toBeInTheDocument();
    expect(screen.queryByText(reviewItem.question)).not.toBeInTheDocument();
  });

  it("[I5] has no pager, radio rows, skip or custom-answer row", () => {
    setup();
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
    expect(screen.queryByText("1 / 1")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Next question" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Skip this question" })).not.toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Custom answer" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Other/)).not.toBeInTheDocument();
  });

  it("[I5] puts Chat about it, Refuse and Approve in that order", () => {
    setup();
    const names = screen.getAllByRole("button").map((button) => button.textContent);
    expect(names.slice(-3)).toEqual(["Chat about it", "Refuse", "Approve"]);
  });

  it("[I5] Approve answers with the asker's own approve label", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(props.onAnswer).toHaveBeenCalledTimes(1);
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: { labels: ["Go ahead"], review: { option: "default" } },
    });
  });

  it("[I5] Refuse answers with the asker's own other label", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Refuse" }));
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: { labels: ["Not yet"] },
    });
  });

  it("[I5] shows the asker's descriptions as tooltips", () => {
    setup();
    expect(screen.getByRole("button", { name: "Approve" })).toHaveAttribute(
      "title",
      "Leave plan mode and start editing",
    );
    expect(screen.getByRole("button", { name: "Refuse" })).toHaveAttribute(
      "title",
      "Stay in plan mode",
    );
  });

  it("[I5] shows no tooltip when the asker gave no description", () => {
    setup({ ...reviewItem, options: [{ label: "Go ahead" }, { label: "Not yet" }] });
    expect(screen.getByRole("button", { name: "Approve" })).not.toHaveAttribute("title");
    expect(screen.getByRole("button", { name: "Refuse" })).not.toHaveAttribute("title");
  });

  it("[I5] leaves Refuse out when only approve is offered", () => {
    setup({ ...reviewItem, options: [{ label: "Go ahead" }] });
    expect(screen.getByRole("button", { name: "Approve" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Refuse" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add feedback" })).not.toBeInTheDocument();
  });

  it("[I7] Chat about it cancels the request and returns focus to the composer", async () => {
    const order: string[] = [];
    const { props, user } = setup(reviewItem, {
      onCancel: vi.fn(() => order.push("cancel")),
      focusComposer: vi.fn(() => order.push("focus")),
    });
    await user.click(screen.getByRole("button", { name: "Chat about it" }));
    expect(order).toEqual(["cancel", "focus"]);
    expect(props.onAnswer).not.toHaveBeenCalled();
  });

  it("[I6] disables every action after a click until the receipt arrives", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    for (const name of ["Chat about it", "Refuse", "Approve"])
      expect(screen.getByRole("button", { name })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(props.onAnswer).toHaveBeenCalledTimes(1);
  });

  it("[I6] re-arms after a rejected receipt and says why", async () => {
    const { props, rerender, user } = setup();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    rerender({ receipt: { ok: false, code: "NOT_PENDING" } });
    for (const name of ["Chat about it", "Refuse", "Approve"])
      expect(screen.getByRole("button", { name })).toBeEnabled();
    expect(screen.getByRole("alert")).toHaveTextContent(/no longer waiting/);
    await user.click(screen.getByRole("button", { name: "Refuse" }));
    expect(props.onAnswer).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("[I6] stays latched after an accepted receipt", async () => {
    const { rerender, user } = setup();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    rerender({ receipt: { ok: true } });
    expect(screen.getByRole("button", { name: "Approve" })).toBeDisabled();
  });

  it("[P9] Refuse with feedback carries the text beside the refuse label", async () => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name: "Add feedback" }));
    await user.type(
      screen.getByRole("textbox", { name: /feedback for the agent/ }),
      "Split the migration in two",
    );
    await user.click(screen.getByRole("button", { name: "Refuse" }));
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: { labels: ["Not yet"], other: "Split the migration in two" },
    });
  });

  it("[X3] restores typed feedback from the draft", () => {
    setup(reviewItem, { draft: { page: 0, picks: {}, other: {}, feedback: "Keep it small" } });
    expect(screen.getByRole("textbox", { name: /feedback for the agent/ })).toHaveValue(
      "Keep it small",
    );
  });

  it("[X3] follows feedback typed in another tab until this tab edits it", async () => {
    const { rerender, user } = setup();
    const draft = (feedback: string) => ({ page: 0, picks: {}, other: {}, feedback });
    rerender({ draft: draft("Keep it small") });
    const box = screen.getByRole("textbox", { name: /feedback for the agent/ });
    expect(box).toHaveValue("Keep it small");
    expect(box).toBeVisible();
    await user.type(box, "!");
    rerender({ draft: draft("Other tab's text") });
    expect(box).toHaveValue("Keep it small!");
  });

  it("[X4] a later revision is numbered, lists the feedback the last one got, and shows what changed", async () => {
    const before = reviewItem.detail?.replace("db.ts", "store.ts") ?? "";
    const { user } = setup(reviewItem, {
      review: {
        ...reviewFrom(reviewItem),
        revision: {
          number: 3,
          previous: { plan: before, feedback: ["Touch db.ts, not store.ts"] },
        },
      },
    });
    expect(screen.getByText("Revision 3")).toBeInTheDocument();
    expect(screen.getByText("Feedback on revision 2:")).toBeInTheDocument();
    expect(screen.getByText("Touch db.ts, not store.ts").tagName).toBe("LI");
    const toggle = screen.getByRole("button", { name: "Show changes since revision 2" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    const body = screen.getByRole("region", { name: "Plan" });
    expect(body.querySelector("del")?.textContent).toContain("store.ts");
    expect(body.querySelector("ins")?.textContent).toContain("db.ts");
    expect(within(body).queryByRole("table")).not.toBeInTheDocument();
    await user.click(toggle);
    expect(within(body).getByRole("table")).toBeInTheDocument();
  });

  it("[X4] the first revision shows no number and no changes", () => {
    setup(reviewItem, { review: { ...reviewFrom(reviewItem), revision: { number: 1 } } });
    expect(screen.queryByText(/Revision/)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Show changes/ })).not.toBeInTheDocument();
  });

  it("[X4] names revisions and feedback in Chinese", () => {
    setup(
      reviewItem,
      {
        review: {
          ...reviewFrom(reviewItem),
          revision: { number: 2, previous: { plan: "# Old", feedback: ["更短一些"] } },
        },
      },
      "zh-CN",
    );
    expect(screen.getByText("第 2 版")).toBeInTheDocument();
    expect(screen.getByText("对第 1 版的反馈：")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "显示自第 1 版以来的改动" })).toBeInTheDocument();
  });

  it("[W5] reaches the plan and every action by Tab, and Enter on the plan approves nothing", async () => {
    const { props, user } = setup();
    await waitFor(() => expect(screen.getByRole("region", { name: "Plan" })).toHaveFocus());
    await user.keyboard("{Enter}");
    expect(props.onAnswer).not.toHaveBeenCalled();
    await user.tab();
    expect(screen.getByRole("button", { name: "Edit plan" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Add feedback" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Ask about the plan" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Approve options" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Chat about it" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Refuse" })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Approve" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(props.onAnswer).toHaveBeenCalledTimes(1);
  });

  it("[I8] renders its copy in zh-CN", () => {
    setup(reviewItem, {}, "zh-CN");
    expect(screen.getByText("计划审阅")).toBeInTheDocument();
    for (const name of ["先聊聊", "拒绝", "批准"])
      expect(screen.getByRole("button", { name })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "计划" })).toBeInTheDocument();
  });
});

describe("PlanReviewPanel, decisions that hold up", () => {
  const builtIn = {
    ...reviewItem,
    question: "Review this implementation plan",
    options: [
      { label: "Approve", description: "Leave plan mode and start carrying out this plan." },
      {
        label: "Refuse",
        description: "Stay in plan mode; any feedback you write goes to the agent.",
      },
    ],
    intent: { kind: "plan-review" as const, approve: "Approve" },
  };

  it("[I7] opening Add feedback puts the caret in the feedback box", async () => {
    const { user } = setup();
    await user.click(screen.getByRole("button", { name: "Add feedback" }));
    expect(screen.getByRole("textbox", { name: /feedback for the agent/ })).toHaveFocus();
    await user.keyboard("Smaller steps");
    expect(screen.getByRole("textbox", { name: /feedback for the agent/ })).toHaveValue(
      "Smaller steps",
    );
  });

  it("[I5] a built-in review speaks zh-CN: accessible name and tooltips included", () => {
    setup(builtIn, { toolName: "ExitPlanMode" }, "zh-CN");
    expect(screen.getByRole("region", { name: "审阅实施计划" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "批准" })).toHaveAttribute(
      "title",
      "退出计划模式，开始执行这份计划。",
    );
    expect(screen.getByRole("button", { name: "拒绝" })).toHaveAttribute(
      "title",
      "留在计划模式；你写下的意见会发给智能体。",
    );
  });

  it("[X1][I5] a plan an agent sends over MCP is not described in plangate's plan mode", () => {
    setup(builtIn, { toolName: "review_plan" }, "zh-CN");
    expect(screen.getByRole("button", { name: "批准" })).toHaveAttribute(
      "title",
      "智能体将执行这份计划。",
    );
    expect(screen.getByRole("button", { name: "拒绝" }).getAttribute("title")).not.toMatch(
      /计划模式/,
    );
  });

  it("[W6] only the plan body scrolls; the strip and the decision row are fixed parts", () => {
    setup();
    const body = screen.getByRole("region", { name: "Plan" });
    expect(body).toHaveClass("qcard-scroll");
    expect(screen.getByRole("button", { name: "Approve" }).closest(".qcard-scroll")).toBeNull();
  });
});

describe("PlanReviewPanel, approving (V4, V5, V8, V9)", () => {
  const hashed = () => ({
    ...reviewFrom(reviewItem),
    revision: { number: 1, contentHash: "abc123" },
  });

  it("[V5] the approve options list all three ways plus the default, which is marked and preselected", async () => {
    const { user } = setup(reviewItem, { review: hashed() });
    const toggle = screen.getByRole("button", { name: "Approve options" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const group = screen.getByRole("group", { name: "How to carry out the plan once approved" });
    const radios = within(group).getAllByRole("radio");
    expect(radios).toHaveLength(4);
    const byDefault = within(group).getByRole("radio", {
      name: /back to the mode before plan mode/,
    });
    expect(byDefault).toBeChecked();
    expect(byDefault.closest("label")).toHaveTextContent("(default)");
    for (const name of [
      "Approve, accept edits automatically",
      "Approve, ask before each edit",
      "Approve with a fresh context",
    ])
      expect(within(group).getByRole("radio", { name })).not.toBeChecked();
  });

  it("[V4][V5][V8] Approve sends the note, the chosen option and the hash of the revision shown", async () => {
    const { props, user } = setup(reviewItem, { review: hashed() });
    await user.click(screen.getByRole("button", { name: "Add feedback" }));
    await user.type(
      screen.getByRole("textbox", { name: /feedback for the agent/ }),
      "Log the misses",
    );
    await user.click(screen.getByRole("button", { name: "Approve options" }));
    await user.click(screen.getByRole("radio", { name: "Approve, accept edits automatically" }));
    expect(props.onAnswer).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Approve, accept edits automatically" }));
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: {
        labels: ["Go ahead"],
        other: "Log the misses",
        review: { option: "edit", planHash: "abc123" },
      },
    });
  });

  it("[V5] choosing an option with the keyboard approves nothing", async () => {
    const { props, user } = setup(reviewItem, { review: hashed() });
    await user.click(screen.getByRole("button", { name: "Approve options" }));
    screen.getByRole("radio", { name: /back to the mode before plan mode/ }).focus();
    await user.keyboard("{ArrowDown}{ArrowDown}{Enter} ");
    expect(props.onAnswer).not.toHaveBeenCalled();
  });

  it("[V8] a stale approval's receipt says the plan changed", async () => {
    const { rerender, user } = setup(reviewItem, { review: hashed() });
    await user.click(screen.getByRole("button", { name: "Approve" }));
    rerender({ review: hashed(), receipt: { ok: false, code: "PLAN_CHANGED" } });
    expect(screen.getByRole("alert")).toHaveTextContent(/plan changed since you saw it/);
  });

  it("[V9] the revision header counts the lines added and removed since the one before", () => {
    const after = reviewItem.detail ?? "";
    const before = after.split("\n").slice(1).join("\n");
    setup(reviewItem, {
      review: {
        ...reviewFrom(reviewItem),
        revision: {
          number: 2,
          previous: { plan: `${before}\nold line A\nold line B`, feedback: [] },
        },
      },
    });
    expect(screen.getByText("+1 / −2 lines since revision 1")).toBeInTheDocument();
  });

  it("[V9] says the same in Chinese", () => {
    setup(
      reviewItem,
      {
        review: {
          ...reviewFrom(reviewItem),
          revision: { number: 2, previous: { plan: "# Old", feedback: [] } },
        },
      },
      "zh-CN",
    );
    expect(screen.getByText(/自第 1 版以来 \+\d+ \/ −1 行/)).toBeInTheDocument();
  });

  it("[V7] a resubmission with the same text is marked unchanged since the revision before", () => {
    const plan = reviewItem.detail ?? "";
    setup(reviewItem, {
      review: {
        ...reviewFrom(reviewItem),
        revision: { number: 3, previous: { plan, feedback: [] } },
      },
    });
    expect(screen.getByText("Unchanged since revision 2")).toBeInTheDocument();
    expect(screen.queryByText(/lines since revision/)).not.toBeInTheDocument();
    // Nothing changed, so no changes to show.
    expect(screen.queryByRole("button", { name: /Show changes/ })).not.toBeInTheDocument();
  });

  it("[V6] Edit plan turns the body into the markdown; Approve sends the edited text", async () => {
    const { props, user } = setup(reviewItem, { review: hashed() });
    await user.click(screen.getByRole("button", { name: "Edit plan" }));
    const box = screen.getByRole("textbox", { name: "Plan markdown" });
    expect(box).toHaveValue(reviewItem.detail);
    await user.clear(box);
    await user.type(box, "# Mine{Enter}{Enter}1. Only step");
    expect(screen.getByText(/Edited: Approve approves your version/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Approve" }));
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: {
        labels: ["Go ahead"],
        review: { option: "default", planHash: "abc123", editedPlan: "# Mine\n\n1. Only step" },
      },
    });
  });

  it("[V7] Ask about the plan sends the question with no label, so nothing is approved or refused", async () => {
    const { props, user } = setup(reviewItem, { review: hashed() });
    await user.click(screen.getByRole("button", { name: "Ask about the plan" }));
    const box = screen.getByRole("textbox", { name: /Your question/ });
    expect(box).toHaveFocus();
    const send = screen.getByRole("button", { name: "Send question" });
    expect(send).toBeDisabled();
    await user.type(box, "  Why SQLite?  ");
    await user.click(send);
    expect(props.onAnswer).toHaveBeenCalledTimes(1);
    expect(props.onAnswer).toHaveBeenCalledWith({
      [reviewItem.question]: { labels: [], other: "Why SQLite?", review: { ask: true } },
    });
    expect(props.onCancel).not.toHaveBeenCalled();
    // I6: one shot until the receipt, like every other action on the card.
    expect(screen.getByRole("button", { name: "Approve" })).toBeDisabled();
  });

  it("[V7] asks in zh-CN too, and the decision row keeps its three buttons last", async () => {
    const { user } = setup(reviewItem, {}, "zh-CN");
    await user.click(screen.getByRole("button", { name: "就计划提问" }));
    expect(screen.getByRole("button", { name: "发送问题" })).toBeInTheDocument();
    const names = screen.getAllByRole("button").map((button) => button.textContent);
    expect(names.slice(-3)).toEqual(["先聊聊", "拒绝", "批准"]);
  });
});
