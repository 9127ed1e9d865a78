import { describe, expect, it } from "vitest";
import {
  answersOf,
  chooseOther,
  clearQuestion,
  draftOf,
  initialFlowState,
  pickOption,
  typeOther,
} from "./flowState.ts";
import { databaseItem, featuresItem, namingItem } from "./testFixtures.ts";

const batch = [databaseItem, featuresItem, namingItem];

describe("flowState", () => {
  it("[Q3] answers {} when nothing was picked", () => {
    expect(answersOf(batch, initialFlowState(batch))).toEqual({});
  });

  it("[Q6] keys answers by question text with labels and custom text", () => {
    let state = initialFlowState(batch);
    state = pickOption(state, databaseItem, "SQLite");
    state = pickOption(state, featuresItem, "Sharing");
    state = pickOption(state, featuresItem, "Search");
    state = typeOther(state, featuresItem, " Audit log ");
    expect(answersOf(batch, state)).toEqual({
      [databaseItem.question]: { labels: ["SQLite"] },
      [featuresItem.question]: { labels: ["Search", "Sharing"], other: "Audit log" },
    });
  });

  it("[Q3] never sends a blank answer: Other chosen without text counts as unanswered", () => {
    const state = chooseOther(initialFlowState(batch), namingItem);
    expect(answersOf(batch, state)).toEqual({});
  });

  it("[Q6] a single choice switches between an option and Other", () => {
    let state = typeOther(initialFlowState(batch), databaseItem, "DuckDB");
    state = pickOption(state, databaseItem, "MySQL");
    expect(answersOf(batch, state)).toEqual({ [databaseItem.question]: { labels: ["MySQL"] } });
    state = chooseOther(state, databaseItem);
    expect(answersOf(batch, state)).toEqual({
      [databaseItem.question]: { labels: [], other: "DuckDB" },
    });
  });

  it("[Q6] toggling a multi-select pick twice removes it", () => {
    let state = pickOption(initialFlowState(batch), featuresItem, "Export");
    state = pickOption(state, featuresItem, "Export");
    expect(answersOf(batch, state)).toEqual({});
  });

  it("[Q6] skipping clears the question's picks and Other choice", () => {
    let state = pickOption(initialFlowState(batch), featuresItem, "Export");
    state = typeOther(state, featuresItem, "More");
    state = clearQuestion(state, featuresItem);
    expect(answersOf(batch, state)).toEqual({});
  });

  it("[X3] a draft round-trips through initialFlowState", () => {
    let state = pickOption(initialFlowState(batch), databaseItem, "MySQL");
    state = typeOther(state, featuresItem, "Audit");
    state = pickOption(state, featuresItem, "Search");
    state = { ...state, page: 2 };
    const restored = initialFlowState(batch, draftOf(state));
    expect(draftOf(restored)).toEqual(draftOf(state));
    expect(answersOf(batch, restored)).toEqual(answersOf(batch, state));
  });

  it("[X3] ignores draft picks the question does not offer and clamps the page", () => {
    const restored = initialFlowState(batch, {
      page: 3,
      picks: { [databaseItem.question]: ["Oracle", "SQLite", "MySQL"] },
      other: {},
    });
    expect(restored.page).toBe(2);
    expect(restored.picks[databaseItem.question]).toEqual(["SQLite"]);
  });
});
