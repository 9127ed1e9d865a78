// Every text the model reads about plan mode lives here, so the tools, the reminders and the
// compaction step describe the same rules in the same voice.

/** Reminders and other runtime notes reach the model wrapped like this, as a user-role message. */
export function runtimeNote(body: string): string {
  return trimmedRuntimeNote(body.trim());
}

/** For a body known to have no outer whitespace: a long one is not copied just to trim it. */
export function trimmedRuntimeNote(body: string): string {
  return `<system-reminder>\n${body}\n</system-reminder>`;
}

export const RUNTIME_NOTE_OPEN = "<system-reminder>";

/** P6: the first reminder of a plan period, and every fifth after it. */
export function planModeReminderFull(): string {
  return runtimeNote(`
Plan mode is on. The user wants to see a plan before anything changes, so until they approve one you work read-only: do not create, edit or delete files, do not run anything that changes the system (no installs, no config changes, no commits), even where a tool seems to allow it. Tools that would change something are refused while plan mode is on.

Work through four phases:
1. Understand: read the code that matters with the read-only tools (Read, Glob, Grep) until you know how the pieces fit and what the user is after.
2. Design: settle the approach: which files change, how, in what order, and what could go wrong.
3. Review: if a choice remains that only the user can make, ask it with AskUserQuestion. Ask only about real decisions, not about details you can settle yourself.
4. Submit: call ExitPlanMode with the finished plan as markdown. The user approves or refuses it there.

A turn in plan mode ends in exactly one of two ways: with AskUserQuestion or with ExitPlanMode. Never ask in plain text whether the plan is good or ready; submitting it with ExitPlanMode is how you ask that.`);
}

/** P6: the reminders between the full ones. */
export function planModeReminderShort(): string {
  return runtimeNote(
    "Plan mode is still on: stay read-only, keep working on the plan, and end the turn with AskUserQuestion or ExitPlanMode.",
  );
}

/** P6: once, on the first request after plan mode ended. */
export function planModeExitedReminder(): string {
  return runtimeNote(
    "Plan mode has ended. You may now edit files and run tools again, as the current permission mode allows. If a plan was approved, carry it out.",
  );
}

/** What EnterPlanMode returns once plan mode is on. */
export function planModeEnteredText(): string {
  return [
    "Plan mode is now on. Until the user approves a plan, you may only look, not change anything:",
    "",
    "1. Explore the codebase with Read, Glob and Grep to understand the task and the code it touches.",
    "2. Look for existing patterns and helpers the change should follow or reuse.",
    "3. Weigh the possible approaches and pick one, noting its trade-offs.",
    "4. If a decision really belongs to the user, ask it with AskUserQuestion.",
    "5. Write the plan: the steps, the files to change, and how to check the result.",
    "6. Submit it with ExitPlanMode and wait for the user's verdict.",
    "",
    "Do not write or edit any files yet.",
  ].join("\n");
}

export function alreadyInPlanModeText(): string {
  return "Plan mode is already on. Keep exploring read-only and submit the plan with ExitPlanMode when it is ready.";
}

/** P3 + P5: why a tool was refused. */
export function planModeDeniedReason(toolName: string): string {
  return `plan mode is on, so ${toolName} cannot run: only tools that change nothing are allowed until the user approves a plan. Finish the plan and submit it with ExitPlanMode`;
}

export function exitPlanModeOutsidePlanReason(): string {
  return "ExitPlanMode only works while plan mode is on, and it is off. There is no plan to submit; carry on with the task";
}

export interface ApprovedPlanTextInput {
  plan: string;
  /** Workspace-relative path of the saved plan; undefined when it could not be saved. */
  path: string | undefined;
  allowedPrompts?: readonly { tool: string; prompt: string }[] | undefined;
  /** Words the user added to their approval. */
  note?: string | undefined;
  /** V5: how the user chose to have the plan carried out. */
  option?: "default" | "edit" | "build" | "fresh" | undefined;
  /** V6: a unified line diff from the submitted plan to the one the user edited and approved. */
  editDiff?: string | undefined;
  /** The permission mode in force after the approval. */
  permissionMode?: string | undefined;
}

/** V5: what each approve option means for the work that follows. */
function optionText(option: ApprovedPlanTextInput["option"], mode: string | undefined): string {
  switch (option) {
    case "edit":
      return "The user chose to have file edits accepted automatically: the session is now in edit mode, so your edits go through without asking each time.";
    case "build":
      return "The user chose to be asked before each edit: the session is now in build mode, so every change you make waits for their approval.";
    case "fresh":
      return "The user chose a fresh context: the conversation before this approval is compacted from the next request on, and the plan file is put back after the summary. Work from the plan.";
    default:
      return mode
        ? `The session is back in the mode it had before plan mode (${mode}).`
        : "The session is back in the mode it had before plan mode.";
  }
}

/** P7 + P8: what the model hears after the user approved. */
export function planApprovedText(input: ApprovedPlanTextInput): string {
  const lines = [
    "The user approved your plan. Plan mode is off: you can now start making the changes. If the plan has several steps, begin by writing them to your todo list.",
  ];
  lines.push(
    input.path
      ? `The plan was saved to ${input.path}.`
      : "The plan could not be saved to a file, but it is approved all the same.",
  );
  lines.push(optionText(input.option, input.permissionMode));
  if (input.note) {
    lines.push(
      `With their approval the user wrote the notes below. Follow them as part of the plan; they are also saved under the plan in the plan file.`,
      "",
      "<approval-notes>",
      input.note,
      "</approval-notes>",
    );
  }
  if (input.editDiff !== undefined) {
    lines.push(
      "The user edited your plan before approving it. The approved plan below is their version; this diff shows what they changed (- your line, + theirs):",
      "",
      "```diff",
      input.editDiff,
      "```",
    );
  }
  if (input.allowedPrompts && input.allowedPrompts.length > 0) {
    lines.push(
      "",
      "You listed these actions the plan would need. They are repeated here for reference only: listing them granted no permission, and each still goes through the usual approval.",
      ...input.allowedPrompts.map((entry) => `- ${entry.tool}: ${entry.prompt}`),
    );
  }
  lines.push("", "## Approved Plan:", input.plan);
  return lines.join("\n");
}

/** P9: the feedback itself follows as the user's own message, so the result says only this. */
export function planNotApprovedText(): string {
  return "The user did not approve the plan.";
}

/**
 * V7: the user asked about the plan instead of deciding. The question is no verdict, so the
 * model answers where the user reads it and asks for the verdict again.
 */
export function planQuestionText(question: string): string {
  return [
    "The user has a question about your plan. They have neither approved nor refused it; plan mode is still on and nothing may change yet.",
    "Answer the question in your reply, plainly and briefly. Then call ExitPlanMode again so they can decide: with exactly the same plan text if your answer changes nothing in it (they will see it marked unchanged), or with a revised plan if it does.",
    "",
    "<user-question>",
    question,
    "</user-question>",
  ].join("\n");
}

/** P10: refused without a word; the turn ends so the user can say what they want. */
export function planRefusedText(): string {
  return [
    "The user refused the plan without comment. Do not rewrite it on your own.",
    "Stay in plan mode and wait for the user's next message.",
  ].join(" ");
}

/** The review was withdrawn (turn stopped, server going down): no verdict was given. */
export function planReviewAbortedText(reason: string): string {
  return [
    `The plan review was withdrawn before the user decided (${reason}).`,
    "The plan is neither approved nor refused, and plan mode is still on.",
  ].join(" ");
}

/** P11: after compaction the saved plan is put back into the conversation. */
export function planFileReferenceText(path: string, text: string, truncated: boolean): string {
  return runtimeNote(
    [
      `A plan file from plan mode exists at ${path}. Its content${truncated ? " (the beginning only; the file is longer)" : ""}:`,
      "",
      text,
      "",
      "If this plan belongs to the current work and is not finished yet, keep working on it.",
    ].join("\n"),
  );
}
