import { expect, type Locator, type Page } from "@playwright/test";
import enPlan from "../../locales/en/plan.json" with { type: "json" };
import en from "../../locales/en/question.json" with { type: "json" };
import zhPlan from "../../locales/zh-CN/plan.json" with { type: "json" };
import zhCN from "../../locales/zh-CN/question.json" with { type: "json" };

// The plan card's strings live in the plan namespace (issue 15); the card reads both.
const copies = { en: { ...en, ...enPlan }, "zh-CN": { ...zhCN, ...zhPlan } } as const;
export type QuestionLocale = keyof typeof copies;

/**
 * The question surfaces above the composer: the generic flow (Q6) and the plan-review
 * card (I5). Names come from the locale files, so the same object drives both languages.
 */
export class QuestionsPage {
  readonly copy: (typeof copies)[QuestionLocale];
  /** Q6: the generic flow's region. */
  readonly flow: Locator;
  readonly other: Locator;
  readonly otherText: Locator;
  readonly skip: Locator;
  readonly submit: Locator;
  readonly next: Locator;
  readonly dismiss: Locator;
  readonly previousPage: Locator;
  readonly nextPage: Locator;
  /** I5: the strip that names the plan-review card. */
  readonly planStrip: Locator;

  constructor(
    readonly page: Page,
    readonly locale: QuestionLocale = "en",
  ) {
    const copy = copies[locale];
    this.copy = copy;
    this.flow = page.getByRole("region", { name: copy["generic.region"], exact: true });
    this.other = this.flow
      .getByRole("radio", { name: copy["generic.other"] })
      .or(this.flow.getByRole("checkbox", { name: copy["generic.other"] }));
    this.otherText = this.flow.getByRole("textbox", { name: copy["generic.otherInput"] });
    this.skip = this.flow.getByRole("button", { name: copy["generic.skip"], exact: true });
    this.submit = this.flow.getByRole("button", { name: copy["generic.submit"], exact: true });
    this.next = this.flow.getByRole("button", { name: copy["generic.nextButton"], exact: true });
    this.dismiss = this.flow.getByRole("button", { name: copy["generic.dismiss"], exact: true });
    this.previousPage = this.flow.getByRole("button", {
      name: copy["generic.previous"],
      exact: true,
    });
    this.nextPage = this.flow.getByRole("button", { name: copy["generic.next"], exact: true });
    this.planStrip = page.getByText(copy["planReview.strip"], { exact: true });
  }

  /** The flow's pager text, e.g. "1 / 3" (Q6). */
  pager(current: number, total: number): Locator {
    return this.flow.getByText(`${current} / ${total}`, { exact: true });
  }

  /** The fieldset of the question on screen, named by its text. */
  question(text: string): Locator {
    return this.flow.getByRole("group", { name: text, exact: true });
  }

  option(label: string): Locator {
    return this.flow
      .getByRole("radio", { name: label, exact: true })
      .or(this.flow.getByRole("checkbox", { name: label, exact: true }));
  }

  /** Q7: "N more waiting" above the head of the queue. */
  waitingHint(count: number): Locator {
    const key = count === 1 ? "queue.waiting_one" : "queue.waiting_other";
    return this.page.getByText(this.copy[key].replace("{{count}}", String(count)), {
      exact: true,
    });
  }

  /** I5: the plan-review card, whose accessible name is the question text. */
  planCard(question: string): Locator {
    return this.page.getByRole("region", { name: question, exact: true });
  }

  planButton(card: Locator, action: "approve" | "refuse" | "chat"): Locator {
    return card.getByRole("button", { name: this.copy[`planReview.${action}`], exact: true });
  }

  async waitForFlow(): Promise<void> {
    await expect(this.flow).toBeVisible();
  }
}

/**
 * The echo the scripted model writes after a question: the tool results it received,
 * verbatim. Reads the newest assistant message that carries one.
 */
export async function modelEcho(page: Page): Promise<string> {
  const reply = page.getByTestId("entry-assistant").filter({ hasText: "Model received:" }).last();
  await expect(reply).toBeVisible();
  return ((await reply.getByRole("code").textContent()) ?? "").trim();
}
