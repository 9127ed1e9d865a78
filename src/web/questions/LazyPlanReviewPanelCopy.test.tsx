// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import zhPlan from "../../../locales/zh-CN/plan.json";
import { renderShell } from "../testing/renderShell.tsx";
import { QuestionComposer } from "./QuestionComposer.tsx";
import {
  composerCallbacks,
  composerProps,
  pendingOf,
  questionRequest,
  reviewItem,
} from "./testFixtures.ts";

describe("LazyPlanReviewPanel: the plan namespace", () => {
  it("[I5] a first plan card brings its strings (the plan namespace) with its code, after the first screen's copy", async () => {
    const props = composerProps(pendingOf(questionRequest(reviewItem)), composerCallbacks());
    const { i18n } = renderShell(<QuestionComposer {...props} />, {
      language: "zh-CN",
      firstScreenCopyOnly: true,
    });
    // The first screen's copy holds none of the card's strings (issue 15).
    expect(i18n.hasResourceBundle("zh-CN", "plan")).toBe(false);
    expect(
      await screen.findByText(zhPlan["planReview.strip"], {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: zhPlan["planReview.approveOptions"] }),
    ).toBeInTheDocument();
    expect(i18n.hasResourceBundle("zh-CN", "plan")).toBe(true);
  });
});
