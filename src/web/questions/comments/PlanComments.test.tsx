// @vitest-environment jsdom
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { AskUserQuestionItem, PlanComment, QuestionDraft } from "../../../protocol/index.ts";
import { PlanReviewPanel, type PlanReviewPanelProps } from "../PlanReviewPanel.tsx";
import { planReviewOf } from "../planReviewOf.ts";
import { renderWithI18n, type TestLanguage } from "../renderWithI18n.tsx";
import { planPanelProps, questionRequest, reviewItem } from "../testFixtures.ts";
import { BLOCKS_SETTLE_MS } from "./PlanCommentSurface.tsx";

// The plan-line parser, made to fail on demand (V2's error path); otherwise the real one.
const parser = vi.hoisted(() => ({ fails: false, calls: 0 }));
vi.mock("../../markdown/sourceBlocks.ts", async (importActual) => {
  const actual = await importActual<typeof import("../../markdown/sourceBlocks.ts")>();
  return {
    ...actual,
    sourceBlocks: (text: string) => {
      parser.calls += 1;
      if (parser.fails) throw new Error("parse failed");
      return actual.sourceBlocks(text);
    },
  };
});

const PLAN = [
  "# Plan",
  "",
  "## Steps",
  "",
  "1. Add the migration",
  "2. Backfill the rows",
  "   in small batches",
  "",
  "## Check",
  "",
  "Run the tests.",
].join("\n");

const item: AskUserQuestionItem = { ...reviewItem, detail: PLAN };

function setup(extra: Partial<PlanReviewPanelProps> = {}, lng: TestLanguage = "en", detail = PLAN) {
  const request = questionRequest({ ...item, detail });
  if (extra.review?.revision) request.planRevision = extra.review.revision;
  const props = planPanelProps(request, extra);
  const view = renderWithI18n(<PlanReviewPanel {...props} />, lng);
  const rerender = (more: Partial<PlanReviewPanelProps>) =>
    view.rerender(<PlanReviewPanel {...props} {...more} />);
  return { props, rerender, user: userEvent.setup() };
}

const region = () => screen.getByRole("region", { name: "Plan" });

/** Blocks are read once the markdown has stopped changing. */
async function blocksReady() {
  await waitFor(() => expect(within(region()).getByText("Run the tests.")).toBeInTheDocument());
  await act(() => new Promise((resolve) => setTimeout(resolve, BLOCKS_SETTLE_MS + 40)));
}

async function commentOnBlock(
  user: ReturnType<typeof userEvent.setup>,
  keys: string,
  text: string,
) {
  region().focus();
  await user.keyboard(keys);
  await user.keyboard("c");
  const box = await screen.findByRole("textbox", { name: /Your comment on/ });
  expect(box).toHaveFocus();
  await user.type(box, text);
  await user.click(screen.getByRole("button", { name: "Add comment" }));
  await screen.findByText(text);
}

function comment(id: string, anchor: Partial<PlanComment["anchor"]>, text: string): PlanComment {
  return {
    id,
    anchor: {
      headingPath: ["Plan", "Steps"],
      blockIndex: 0,
      blockText: "Add the migration",
      quote: "Add the migration",
      lines: { start: 5, end: 5 },
      ...anchor,
    },
    text,
  };
}

describe("plan comments (V1–V3)", () => {
  it("[V1] j/k move between blocks with a visible mark and c opens a comment box, without a mouse", async () => {
    const { user } = setup();
    await blocksReady();
    region().focus();
    await user.keyboard("jjj");
    const marked = within(region()).getByText("Add the migration", { selector: "li" });
    expect(marked).toHaveAttribute("data-qmark", "active");
    await user.keyboard("k");
    expect(marked).not.toHaveAttribute("data-qmark");
    await user.keyboard("jc");
    expect(
      await screen.findByRole("textbox", { name: "Your comment on “Add the migration”" }),
    ).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("textbox", { name: /Your comment on/ })).not.toBeInTheDocument();
  });

  it("[V1][R5] a click on a link in the plan follows the link and leaves the block unmarked; a click beside it marks the block", async () => {
    const detail = `${PLAN}\n\nKeep each price five minutes[^ttl].\n\n[^ttl]: The API allows it.\n`;
    Element.prototype.scrollIntoView = () => {};
    const { user } = setup({}, "en", detail);
    await blocksReady();
    const note = within(region()).getByText("Keep each price five minutes", { exact: false });
    await user.click(within(note).getByRole("link", { name: "1" }));
    expect(note).not.toHaveAttribute("data-qmark");
    await user.click(note);
    expect(note).toHaveAttribute("data-qmark", "active");
  });

  it("[V1] keys pressed faster than the page re-renders each move the mark one block", async () => {
    setup();
    await blocksReady();
    region().focus();
    // Three presses in one task, as a fast typist or a test driver sends them: no render between.
    act(() => {
      for (let press = 0; press < 3; press++) {
        region().dispatchEvent(new KeyboardEvent("keydown", { key: "j", bubbles: true }));
      }
    });
    const marked = within(region()).getByText("Add the migration", { selector: "li" });
    await waitFor(() => expect(marked).toHaveAttribute("data-qmark", "active"));
  });

  it("[V1] a comment shows beside its block, is saved as a draft, and can be edited and removed", async () => {
    const { props, user } = setup();
    await blocksReady();
    await commentOnBlock(user, "jjjj", "Say how big a batch is");
    const card = screen.getByRole("article", {
      name: "Comment on “Backfill the rows in small batches”",
    });
    expect(within(card).getByText("lines 6–7")).toBeInTheDocument();
    await waitFor(() => expect(props.onDraft).toHaveBeenCalled());
    const draft = vi.mocked(props.onDraft!).mock.calls.at(-1)?.[0];
    expect(draft?.comments?.[0]).toMatchObject({
      text: "Say how big a batch is",
      anchor: { headingPath: ["Plan", "Steps"], blockIndex: 1, lines: { start: 6, end: 7 } },
    });
    await user.click(within(card).getByRole("button", { name: "Edit" }));
    const edit = within(card).getByRole("textbox");
    await user.clear(edit);
    await user.type(edit, "1000 rows per batch");
    await user.click(within(card).getByRole("button", { name: "Save" }));
    expect(within(card).getByText("1000 rows per batch")).toBeInTheDocument();
    // W5: read out of context, each button says which comment it acts on.
    for (const name of ["Edit", "Remove"]) {
      expect(within(card).getByRole("button", { name })).toHaveAccessibleDescription(
        /Backfill the rows in small batches/,
      );
    }
    await user.click(within(card).getByRole("button", { name: "Remove" }));
    expect(screen.queryByRole("article")).not.toBeInTheDocument();
  });

  it("[V1] an anchor survives a re-render and a reload: the saved draft puts the comment back on its block", async () => {
    const saved: QuestionDraft = {
      page: 0,
      picks: {},
      other: {},
      comments: [
        comment(
          "a",
          {
            blockIndex: 1,
            blockText: "Backfill the rows in small batches",
            quote: "small batches",
            lines: { start: 7, end: 7 },
          },
          "How small?",
        ),
      ],
    };
    const { rerender } = setup({ draft: saved });
    await blocksReady();
    const block = within(region())
      .getByText(/Backfill the rows/)
      .closest("li");
    expect(block).toHaveAttribute("data-qmark", "comment");
    expect(screen.getByRole("article", { name: "Comment on “small batches”" })).toBeInTheDocument();
    // A re-render (here: the same draft arriving again from the server) keeps one card, same block.
    rerender({ draft: { ...saved } });
    await blocksReady();
    expect(screen.getAllByRole("article")).toHaveLength(1);
    expect(
      within(region())
        .getByText(/Backfill the rows/)
        .closest("li"),
    ).toHaveAttribute("data-qmark", "comment");
  });

  it("[V2] Request changes sends every comment, in plan order, with its quote, heading path and plan-file lines", async () => {
    const { props, user } = setup();
    await blocksReady();
    await commentOnBlock(user, "jjjjjjj", "Name the test command");
    await commentOnBlock(user, "kkk", "Keep the old column");
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(2));
    await user.click(screen.getByRole("button", { name: "Request changes (2 comments)" }));
    const answers = vi.mocked(props.onAnswer).mock.calls[0]?.[0];
    const sent = answers?.[item.question];
    expect(sent?.labels).toEqual(["Not yet"]);
    expect(
      sent?.review?.comments?.map((c) => [
        c.text,
        c.anchor.quote,
        c.anchor.headingPath,
        c.anchor.lines,
      ]),
    ).toEqual([
      ["Keep the old column", "Add the migration", ["Plan", "Steps"], { start: 5, end: 5 }],
      ["Name the test command", "Run the tests.", ["Plan", "Check"], { start: 11, end: 11 }],
    ]);
  });

  it("[U2] with comments, the decline button offers a phone its short label and keeps the count in its name", async () => {
    const { user } = setup();
    await blocksReady();
    const refuse = screen.getByRole("button", { name: "Refuse" });
    expect(refuse).not.toHaveAttribute("data-short");
    await commentOnBlock(user, "jjjjjjj", "Name the test command");
    await waitFor(() => expect(screen.getAllByRole("article")).toHaveLength(1));
    const requestChanges = screen.getByRole("button", { name: "Request changes (1 comment)" });
    expect(requestChanges).toBe(refuse);
    expect(requestChanges).toHaveAttribute("data-short", "Request changes");
    expect(requestChanges).toHaveTextContent("Request changes (1 comment)");
  });

  it("[V3] the next revision shows each earlier comment at its place, marked changed or unchanged, and counts the addressed ones", async () => {
    const earlier = [
      comment("a", {}, "Keep the old column"),
      comment(
        "b",
        {
          blockIndex: 1,
          blockText: "Backfill the rows in small batches",
          quote: "small batches",
          lines: { start: 6, end: 7 },
        },
        "How small?",
      ),
      comment(
        "c",
        {
          headingPath: ["Plan", "Rollout"],
          blockText: "Ship on Friday",
          quote: "Ship on Friday",
          lines: { start: 14, end: 14 },
        },
        "Not on a Friday",
      ),
    ];
    const revised = PLAN.replace("in small batches", "in batches of 1000 rows");
    const base = planReviewOf(questionRequest({ ...item, detail: revised }));
    if (base === null) throw new Error("fixture");
    setup(
      {
        review: {
          ...base,
          revision: { number: 2, previous: { plan: PLAN, feedback: [], comments: earlier } },
        },
      },
      "en",
      revised,
    );
    await blocksReady();
    const unchanged = screen.getByRole("article", { name: "Comment on “Add the migration”" });
    expect(within(unchanged).getByText("Unchanged")).toBeInTheDocument();
    const changed = screen.getByRole("article", { name: "Comment on “small batches”" });
    expect(within(changed).getByText("Changed")).toBeInTheDocument();
    const removed = screen.getByRole("article", { name: "Comment on “Ship on Friday”" });
    expect(within(removed).getByText("Removed")).toBeInTheDocument();
    expect(
      within(region())
        .getByText(/batches of 1000/)
        .closest("li"),
    ).toHaveAttribute("data-qmark", "earlier-changed");
    expect(await screen.findByText("Comments addressed: 2 of 3")).toBeInTheDocument();
  });

  it("[V1] on a wide window the margin is open before the first comment, and a resize of the plan puts each card at its block's new place", async () => {
    // A wide window, observers the test can fire, and list items 100 px (then 150 px) down the layer.
    vi.stubGlobal("matchMedia", () => ({
      matches: true,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    const observers: { callback: ResizeObserverCallback; targets: Element[] }[] = [];
    vi.stubGlobal(
      "ResizeObserver",
      class {
        targets: Element[] = [];
        constructor(public callback: ResizeObserverCallback) {
          observers.push(this);
        }
        observe(target: Element) {
          this.targets.push(target);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    let shift = 0;
    const rect = vi
      .spyOn(HTMLElement.prototype, "getBoundingClientRect")
      .mockImplementation(function (this: HTMLElement) {
        const top = this.tagName === "LI" ? 100 + shift : 0;
        return { top, bottom: top + 20, left: 0, right: 0, width: 0, height: 20 } as DOMRect;
      });
    try {
      const { user } = setup();
      await blocksReady();
      const surface = region().querySelector(".qcomments");
      // The first comment must not narrow the plan: the margin is there already.
      expect(surface).toHaveAttribute("data-layout", "margin");
      await commentOnBlock(user, "jjj", "Which table?");
      expect(surface).toHaveAttribute("data-layout", "margin");
      const slot = () =>
        screen
          .getByRole("article", { name: /Add the migration/ })
          .closest<HTMLElement>(".qcomments-slot");
      expect(slot()?.style.top).toBe("100px");
      // The window narrows: the plan reflows and its observer reports a new size.
      shift = 50;
      const plan = region().querySelector(".qcomments-plan");
      const sizes = observers.find((observer) => plan && observer.targets.includes(plan));
      act(() => sizes?.callback([], {} as ResizeObserver));
      expect(slot()?.style.top).toBe("150px");
    } finally {
      rect.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it("[V1][W2] speaks Chinese too", async () => {
    const { user } = setup({}, "zh-CN");
    await waitFor(() => expect(screen.getByText("Run the tests.")).toBeInTheDocument());
    await act(() => new Promise((resolve) => setTimeout(resolve, BLOCKS_SETTLE_MS + 40)));
    screen.getByRole("region", { name: "计划" }).focus();
    await user.keyboard("jc");
    expect(await screen.findByRole("button", { name: "添加评论" })).toBeDisabled();
  });
  it("[V1] a plan without comments reads no positions while it renders and its blocks are read", async () => {
    // A position read in the card's task forces the whole plan's layout into it (tens of ms
    // on a big plan); with nothing to place in the margin there is nothing to measure.
    const read = vi.spyOn(HTMLElement.prototype, "getBoundingClientRect");
    try {
      setup();
      await blocksReady();
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });

  it("[V2] the plan's lines are not parsed while the plan is scrolled; a press in it starts the parse", async () => {
    parser.calls = 0;
    // A plan of its own: the lines of one parsed before are kept.
    setup({}, "en", `${PLAN}\n\nScrolled before any comment.`);
    await blocksReady();
    for (let i = 0; i < 8; i++) {
      region().dispatchEvent(new Event("scroll"));
      await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    }
    expect(parser.calls).toBe(0);
    within(region())
      .getByText("Run the tests.")
      .dispatchEvent(new Event("pointerdown", { bubbles: true }));
    await waitFor(() => expect(parser.calls).toBe(1));
  });

  it("[V1] once the plan's lines are parsed, Add comment shows the card in the click's own render (nothing awaited)", async () => {
    const { user } = setup();
    await blocksReady();
    // The first comment waits for the parse if it must; the plan's lines are kept after it.
    await commentOnBlock(user, "jjj", "First");
    region().focus();
    await user.keyboard("jjjc");
    await user.type(await screen.findByRole("textbox", { name: /Your comment on/ }), "Second");
    const add = screen.getByRole("button", { name: "Add comment" });
    // A synchronous act flushes the renders the click queued, but no promise callback: a card
    // that waited for one (a microtask hop, another render) would be missing here.
    act(() => add.click());
    expect(screen.getByText("Second")).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: /Your comment on/ })).not.toBeInTheDocument();
  });

  it("[V2] when the plan's lines cannot be parsed, the comment box comes back with its text and an error, and adding again works", async () => {
    parser.fails = true;
    try {
      const { props, user } = setup({}, "en", `${PLAN}\n\nParsing fails here.`);
      await blocksReady();
      region().focus();
      await user.keyboard("jjjc");
      await user.type(await screen.findByRole("textbox", { name: /Your comment on/ }), "Why?");
      await user.click(screen.getByRole("button", { name: "Add comment" }));
      expect(await screen.findByRole("alert")).toHaveTextContent(
        "The plan’s line numbers could not be read",
      );
      expect(screen.getByRole("textbox", { name: /Your comment on/ })).toHaveValue("Why?");
      parser.fails = false;
      await user.click(screen.getByRole("button", { name: "Add comment" }));
      const card = await screen.findByRole("article", { name: "Comment on “Add the migration”" });
      expect(within(card).getByText("line 5")).toBeInTheDocument();
      expect(screen.queryByRole("alert")).not.toBeInTheDocument();
      await waitFor(() => expect(props.onDraft).toHaveBeenCalled());
    } finally {
      parser.fails = false;
    }
  });
});
