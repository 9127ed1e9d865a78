// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AskUserQuestionItem } from "../../protocol/index.ts";
import { GenericQuestionFlow, type GenericQuestionFlowProps } from "./GenericQuestionFlow.tsx";
import { renderWithI18n, type TestLanguage } from "./renderWithI18n.tsx";
import { databaseItem, featuresItem, namingItem, questionRequest } from "./testFixtures.ts";
import { DRAFT_DEBOUNCE_MS } from "./useQuestionActivity.ts";

function setup(
  questions: AskUserQuestionItem[],
  extra: Partial<GenericQuestionFlowProps> = {},
  lng: TestLanguage = "en",
) {
  const props = {
    request: questionRequest(...questions),
    onSubmit: vi.fn(),
    onCancel: vi.fn(),
    onTouch: vi.fn(),
    onDraft: vi.fn(),
    ...extra,
  } satisfies GenericQuestionFlowProps;
  const view = renderWithI18n(<GenericQuestionFlow {...props} />, lng);
  const rerender = (more: Partial<GenericQuestionFlowProps>) =>
    view.rerender(<GenericQuestionFlow {...props} {...more} />);
  return { props, rerender, view, user: userEvent.setup() };
}

/** The card takes focus in the frame after it arrives (useClaimFocus); keys go to it from then. */
async function cardFocused() {
  await waitFor(() =>
    expect(screen.getByRole("region", { name: "Questions from the agent" })).toHaveFocus(),
  );
}

const three = [databaseItem, featuresItem, namingItem];

afterEach(() => {
  vi.useRealTimers();
});

describe("GenericQuestionFlow", () => {
  it("[Q6] pages through the batch with a 1 / N pager", async () => {
    const { user } = setup(three);
    expect(screen.getByText("1 / 3")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous question" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: featuresItem.question })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Previous question" }));
    expect(screen.getByText("1 / 3")).toBeInTheDocument();
  });

  it("[Q6] shows the header chip, the question, markdown detail and numbered rows", () => {
    setup([namingItem]);
    expect(screen.getByText("Naming")).toBeInTheDocument();
    const group = screen.getByRole("group", { name: namingItem.question });
    expect(within(group).getByText("invoices").tagName).toBe("STRONG");
    const radios = within(group).getAllByRole("radio");
    expect(radios.map((radio) => radio.getAttribute("aria-describedby") !== null)).toEqual([
      false,
      false,
      false,
    ]);
    expect(screen.getByRole("radio", { name: "billing" }).closest("li")).toHaveTextContent(
      /^1billing/,
    );
    expect(
      screen.getByRole("radio", { name: "Other — enter a custom answer" }),
    ).toBeInTheDocument();
    expect(screen.queryByText("1 / 1")).not.toBeInTheDocument();
  });

  it("[Q6] describes each option with the asker's description", () => {
    setup([databaseItem]);
    expect(
      screen.getByRole("radio", { name: "Postgres (Recommended)" }),
    ).toHaveAccessibleDescription("Robust, already in the stack");
  });

  it("[Q6][W10] picks options with digit keys, moves on with Enter and submits from the review page", async () => {
    const { props, user } = setup([databaseItem, namingItem]);
    await cardFocused();
    await user.keyboard("2");
    expect(screen.getByRole("radio", { name: "SQLite" })).toBeChecked();
    await user.keyboard("{Enter}");
    expect(screen.getByText("2 / 2")).toBeInTheDocument();
    await user.keyboard("1{Enter}");
    expect(props.onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Submit" })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(props.onSubmit).toHaveBeenCalledWith({
      [databaseItem.question]: { labels: ["SQLite"] },
      [namingItem.question]: { labels: ["billing"] },
    });
  });

  it("[Q6][W5] Enter pressed before the last pick's effects ran still lands on the next page's first option", async () => {
    setup([databaseItem, featuresItem]);
    await cardFocused();
    // Raw key events, outside act(): the page's runtime renders in a microtask and runs effects
    // after the next paint, so Enter can come between a pick's render and its effects.
    const press = (key: string) =>
      document.activeElement?.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
    press("2");
    await Promise.resolve();
    expect(screen.getByRole("radio", { name: "SQLite" })).toBeChecked();
    press("Enter");
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "Search" })).toHaveFocus());
  });

  it("[Q6] moves within the radio group with arrow keys", async () => {
    const { user } = setup([databaseItem]);
    await user.click(screen.getByRole("radio", { name: "Postgres (Recommended)" }));
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("radio", { name: "SQLite" })).toBeChecked();
  });

  it("[Q6] offers checkboxes for multiSelect and answers in option order", async () => {
    const { props, user } = setup([featuresItem]);
    expect(screen.queryByRole("radio")).not.toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Sharing" }));
    await user.keyboard("1");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(props.onSubmit).toHaveBeenCalledWith({
      [featuresItem.question]: { labels: ["Search", "Sharing"] },
    });
  });

  it("[Q6] sends a custom answer typed into the Other row", async () => {
    const { props, user } = setup([databaseItem]);
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.type(screen.getByRole("textbox", { name: "Custom answer" }), "  DuckDB  ");
    expect(screen.getByRole("radio", { name: "Other — enter a custom answer" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "SQLite" })).not.toBeChecked();
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(props.onSubmit).toHaveBeenCalledWith({
      [databaseItem.question]: { labels: [], other: "DuckDB" },
    });
  });

  it("[Q6] lets a multiSelect answer combine picks and custom text", async () => {
    const { props, user } = setup([featuresItem]);
    await user.click(screen.getByRole("checkbox", { name: "Export" }));
    await user.type(screen.getByRole("textbox", { name: "Custom answer" }), "Audit log{Enter}");
    expect(props.onSubmit).toHaveBeenCalledWith({
      [featuresItem.question]: { labels: ["Export"], other: "Audit log" },
    });
  });

  it("[Q6][W10] leaves a skipped question out of the answers, after saying so on the review page", async () => {
    const { props, user } = setup([databaseItem, namingItem]);
    await user.click(screen.getByRole("radio", { name: "MySQL" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    expect(screen.getByText("2 / 2")).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "payments" }));
    await user.click(screen.getByRole("button", { name: "Review answers" }));
    expect(props.onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Submit with 1 skipped" }));
    expect(props.onSubmit).toHaveBeenCalledWith({
      [namingItem.question]: { labels: ["payments"] },
    });
  });

  it("[Q6] answers {} when every question is skipped", async () => {
    const { props, user } = setup([databaseItem]);
    await user.click(screen.getByRole("radio", { name: "MySQL" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    expect(props.onSubmit).toHaveBeenCalledWith({});
  });

  it("[Q6] × dismisses the whole batch", async () => {
    const { props, user } = setup(three);
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Dismiss questions" }));
    expect(props.onCancel).toHaveBeenCalledTimes(1);
    expect(props.onSubmit).not.toHaveBeenCalled();
  });

  it("[Q6] does not dismiss on Escape", async () => {
    const { props, user } = setup([databaseItem]);
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.keyboard("{Escape}");
    expect(props.onCancel).not.toHaveBeenCalled();
    expect(screen.getByRole("radio", { name: "SQLite" })).toBeChecked();
  });

  it("[Q6] latches Submit until the receipt and re-arms on a rejection", async () => {
    const { props, rerender, user } = setup([databaseItem]);
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(screen.getByRole("button", { name: "Submit" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Dismiss questions" })).toBeDisabled();
    rerender({ receipt: { ok: false, code: "STORAGE_FAILED" } });
    expect(screen.getByRole("alert")).toHaveTextContent(/could not save/);
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(props.onSubmit).toHaveBeenCalledTimes(2);
  });

  it("[A4] reports a touch once, on the first user operation", async () => {
    const { props, user } = setup(three);
    expect(props.onTouch).not.toHaveBeenCalled();
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.type(screen.getByRole("textbox", { name: "Custom answer" }), "x");
    expect(props.onTouch).toHaveBeenCalledTimes(1);
  });

  it("[A4] counts paging as a user operation", async () => {
    const { props, user } = setup(three);
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(props.onTouch).toHaveBeenCalledTimes(1);
  });

  it("[X3] saves the work in progress as a debounced draft", () => {
    // Synchronous events and a fake setTimeout: the debounce is observed without waiting.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { props } = setup(three);
    fireEvent.click(screen.getByRole("radio", { name: "SQLite" }));
    fireEvent.click(screen.getByRole("button", { name: "Next question" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Export" }));
    // Typing fires input events, which a text field's onChange follows.
    fireEvent.input(screen.getByRole("textbox", { name: "Custom answer" }), {
      target: { value: "Audit" },
    });
    expect(props.onDraft).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(DRAFT_DEBOUNCE_MS);
    });
    expect(props.onDraft).toHaveBeenCalledTimes(1);
    expect(props.onDraft).toHaveBeenCalledWith({
      page: 1,
      picks: { [databaseItem.question]: ["SQLite"], [featuresItem.question]: ["Export"] },
      other: { [featuresItem.question]: "Audit" },
    });
  });

  it("[X3] flushes a pending draft when the card unmounts without an answer", () => {
    const { props, view } = setup([databaseItem]);
    fireEvent.click(screen.getByRole("radio", { name: "MySQL" }));
    view.unmount();
    expect(props.onDraft).toHaveBeenCalledWith({
      page: 0,
      picks: { [databaseItem.question]: ["MySQL"] },
      other: {},
    });
  });

  it("[X3] drops a pending draft once the batch is answered", () => {
    const { props, view } = setup([databaseItem]);
    fireEvent.click(screen.getByRole("radio", { name: "MySQL" }));
    fireEvent.click(screen.getByRole("button", { name: "Submit" }));
    view.unmount();
    expect(props.onSubmit).toHaveBeenCalledTimes(1);
    expect(props.onDraft).not.toHaveBeenCalled();
  });

  it("[X3] restores page, picks and custom text from the draft", () => {
    setup(three, {
      draft: {
        page: 1,
        picks: { [databaseItem.question]: ["MySQL"], [featuresItem.question]: ["Search"] },
        other: { [featuresItem.question]: "Audit log" },
      },
    });
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Search" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Other — enter a custom answer" })).toBeChecked();
    expect(screen.getByRole("textbox", { name: "Custom answer" })).toHaveValue("Audit log");
  });

  it("[X3] follows a draft saved in another tab until this tab edits the card", async () => {
    const { rerender, user } = setup([databaseItem]);
    const draft = (label: string) => ({
      page: 0,
      picks: { [databaseItem.question]: [label] },
      other: {},
    });
    rerender({ draft: draft("MySQL") });
    expect(screen.getByRole("radio", { name: "MySQL" })).toBeChecked();
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    rerender({ draft: draft("MySQL") });
    rerender({ draft: { ...draft("MySQL"), other: {} } });
    expect(screen.getByRole("radio", { name: "SQLite" })).toBeChecked();
  });

  it("[X3] submits restored picks together with new ones", async () => {
    const { props, user } = setup([databaseItem, namingItem], {
      draft: { page: 1, picks: { [databaseItem.question]: ["MySQL"] }, other: {} },
    });
    await user.click(screen.getByRole("radio", { name: "billing" }));
    await user.click(screen.getByRole("button", { name: "Review answers" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(props.onSubmit).toHaveBeenCalledWith({
      [databaseItem.question]: { labels: ["MySQL"] },
      [namingItem.question]: { labels: ["billing"] },
    });
  });

  it("[W10] a batch ends on a review page that lists each answer and marks the gaps", async () => {
    const { props, user } = setup(three);
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    await user.click(screen.getByRole("radio", { name: "billing" }));
    await user.click(screen.getByRole("button", { name: "Review answers" }));
    const review = screen.getByRole("region", { name: "Review your answers" });
    const items = within(review).getAllByRole("listitem");
    expect(items.map((item) => item.getAttribute("data-answered"))).toEqual([
      "true",
      "false",
      "true",
    ]);
    expect(items[0]).toHaveTextContent("SQLite");
    expect(items[1]).toHaveTextContent("Not answered");
    expect(within(review).getByRole("status")).toHaveTextContent("1 question has no answer");
    expect(screen.queryByRole("button", { name: "Submit" })).not.toBeInTheDocument();

    // Changing an answer goes back to its page; the review comes back without the gap.
    await user.click(
      screen.getByRole("button", { name: `Change the answer to: ${featuresItem.question}` }),
    );
    expect(screen.getByText("2 / 3")).toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Export" }));
    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Review answers" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(props.onSubmit).toHaveBeenCalledWith({
      [databaseItem.question]: { labels: ["SQLite"] },
      [featuresItem.question]: { labels: ["Export"] },
      [namingItem.question]: { labels: ["billing"] },
    });
  });

  it("[W10] a single question still submits at once, with no review page", async () => {
    const { props, user } = setup([databaseItem]);
    await user.click(screen.getByRole("radio", { name: "SQLite" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(props.onSubmit).toHaveBeenCalledTimes(1);
  });

  it("[W6] only the question body scrolls; the footer is a fixed part of the card", () => {
    setup(three);
    const body = screen.getByRole("group", { name: databaseItem.question });
    expect(body).toHaveClass("qcard-scroll");
    expect(
      screen.getByRole("button", { name: "Skip this question" }).closest(".qcard-scroll"),
    ).toBeNull();
  });

  it("[Q6] renders its copy in zh-CN", () => {
    setup(three, {}, "zh-CN");
    expect(screen.getByRole("button", { name: "跳过此题" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "关闭全部问题" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "其他 — 填写你自己的答案" })).toBeInTheDocument();
  });
});

describe("GenericQuestionFlow review page keys", () => {
  it("[W10] digit keys on the review page change no hidden answer", async () => {
    const { props, user } = setup([databaseItem, namingItem]);
    await cardFocused();
    await user.keyboard("2{Enter}1{Enter}");
    expect(screen.getByRole("region", { name: "Review your answers" })).toBeInTheDocument();
    await user.keyboard("2");
    await user.keyboard("{Enter}");
    expect(props.onSubmit).toHaveBeenCalledWith({
      [databaseItem.question]: { labels: ["SQLite"] },
      [namingItem.question]: { labels: ["billing"] },
    });
  });
});
