import type { StoredEntry } from "../../protocol/index.ts";
import { numberedTodoList } from "../todos/todoText.ts";
import { cut, formatPassage, type Passage, passagesOf } from "./passages.ts";
import { rankPassages } from "./rank.ts";
import type { SessionMaterial } from "./source.ts";

/** The rough size of a token in characters; budgets are given in tokens. */
export const CHARS_PER_TOKEN = 4;
const SEPARATOR = "\n\n";

/** M4 `relevant`: the passages that best match the query, shown in the order they happened. */
export function relevantMaterial(
  material: SessionMaterial,
  query: string,
  budgetChars: number,
): string {
  const passages = passagesOf(material.entries);
  const ranked = rankPassages(passages, query);
  if (ranked.length === 0) {
    const note =
      "No part of that session shares a word with the query, so its most recent part follows.";
    return withinBudget(
      [note, recentTail(passages, budgetChars - note.length - SEPARATOR.length)],
      budgetChars,
    );
  }
  const header = "Parts of that session matching the query, in the order they happened:";
  const picked = pickWithin(
    ranked.map((r) => r.passage),
    budgetChars - header.length - SEPARATOR.length,
  );
  picked.sort((a, b) => a.seq - b.seq);
  return withinBudget([header, ...picked.map(formatPassage)], budgetChars);
}

/** M4 `handoff`: where that session was going, its plan and todos, and how it ended. */
export function handoffMaterial(material: SessionMaterial, budgetChars: number): string {
  const passages = passagesOf(material.entries);
  const sections: string[] = [];
  const goal = passages.find((passage) => passage.role === "user");
  if (goal) sections.push(`## First request\n${cut(goal.text, 1_000)}`);
  const plan = latestPlan(material.entries);
  if (plan) {
    const room = Math.max(200, Math.floor(budgetChars * 0.4));
    sections.push(
      `## ${plan.approved ? "Approved plan" : "Proposed plan"}\n${cut(plan.text, room)}`,
    );
  }
  sections.push(
    material.todos.length === 0
      ? "## Todo list\n(empty)"
      : `## Todo list\n${numberedTodoList(material.todos)}`,
  );
  const used = sections.reduce((sum, section) => sum + section.length + SEPARATOR.length, 0);
  const tailHeader = "## Most recent conversation";
  const tail = recentTail(passages, budgetChars - used - tailHeader.length - 1);
  if (tail !== "") sections.push(`${tailHeader}\n${tail}`);
  return withinBudget(sections, budgetChars);
}

/** The last approved plan, or a later one that was only proposed (ExitPlanMode's input). */
export function latestPlan(
  entries: readonly StoredEntry[],
): { text: string; approved: boolean } | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const { entry } = entries[index]!;
    if (entry.kind === "plan.approved") return { text: entry.plan, approved: true };
    if (entry.kind === "tool.call" && entry.name === "ExitPlanMode") {
      const plan = (entry.input as { plan?: unknown } | null)?.plan;
      if (typeof plan === "string" && plan.trim() !== "") return { text: plan, approved: false };
    }
  }
  return undefined;
}

/** The latest passages that fit, oldest first. */
function recentTail(passages: readonly Passage[], budgetChars: number): string {
  return pickWithin([...passages].reverse(), budgetChars)
    .sort((a, b) => a.seq - b.seq)
    .map(formatPassage)
    .join(SEPARATOR);
}

/** Takes passages in the given order while they fit; the first that does not is shortened. */
function pickWithin(passages: readonly Passage[], budgetChars: number): Passage[] {
  const picked: Passage[] = [];
  let used = 0;
  for (const passage of passages) {
    const size = formatPassage(passage).length + SEPARATOR.length;
    if (used + size <= budgetChars) {
      picked.push(passage);
      used += size;
      continue;
    }
    const room = budgetChars - used - (size - passage.text.length);
    if (room >= 200) picked.push({ ...passage, text: cut(passage.text, room) });
    break;
  }
  return picked;
}

function withinBudget(parts: readonly string[], budgetChars: number): string {
  return cut(parts.filter((part) => part !== "").join(SEPARATOR), budgetChars);
}
