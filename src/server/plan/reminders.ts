import type { ExecutionMode, SessionEntry } from "../../protocol/index.ts";
import { readExecutionMode } from "./executionMode.ts";
import {
  planModeExitedReminder,
  planModeReminderFull,
  planModeReminderShort,
} from "./planTexts.ts";

export const PLAN_MODE_REMINDER = "plan_mode";
export const PLAN_MODE_EXIT_REMINDER = "plan_mode_exit";

/** P6: after this many real user messages since the last one, plan mode is recalled again. */
export const REAL_MESSAGES_BETWEEN_REMINDERS = 5;
/** P6: the 1st, 6th, 11th… reminder of a plan period is the full one. */
export const FULL_REMINDER_EVERY = 5;

export type ModeReminder = Extract<SessionEntry, { kind: "user.message" }> & {
  synthetic: true;
  reminder: string;
};

/** P6: what the reminders depend on, folded from the log entry by entry. */
export class PlanHistory {
  private planEnabled = false;
  /** Plan reminders given since plan mode was last switched on. */
  private remindersThisPeriod = 0;
  /** Real (typed) user messages since the last plan reminder. */
  private realMessagesSinceReminder = 0;
  /** Plan mode ended after the model was told about it, and it has not heard so yet. */
  private exitUnannounced = false;

  add(entry: SessionEntry): void {
    switch (entry.kind) {
      case "session.created":
      case "session.modeChanged": {
        const planEnabled = readExecutionMode(entry.mode).planEnabled;
        if (planEnabled && !this.planEnabled) {
          this.remindersThisPeriod = 0;
          this.realMessagesSinceReminder = 0;
          this.exitUnannounced = false;
        }
        if (!planEnabled && this.planEnabled) {
          this.exitUnannounced = this.remindersThisPeriod > 0;
        }
        this.planEnabled = planEnabled;
        break;
      }
      case "user.message":
        if (entry.reminder === PLAN_MODE_REMINDER) {
          this.remindersThisPeriod++;
          this.realMessagesSinceReminder = 0;
        } else if (entry.reminder === PLAN_MODE_EXIT_REMINDER) {
          this.exitUnannounced = false;
        } else if (!entry.synthetic) {
          this.realMessagesSinceReminder++;
        }
        break;
      default:
        break;
    }
  }

  /** The reminder the next model request needs in `mode`, if any (see `nextModeReminder`). */
  reminderFor(mode: ExecutionMode): ModeReminder | undefined {
    if (mode.planEnabled) {
      const due =
        this.remindersThisPeriod === 0 ||
        this.realMessagesSinceReminder >= REAL_MESSAGES_BETWEEN_REMINDERS;
      if (!due) return undefined;
      const full = this.remindersThisPeriod % FULL_REMINDER_EVERY === 0;
      return reminderEntry(
        PLAN_MODE_REMINDER,
        full ? planModeReminderFull() : planModeReminderShort(),
      );
    }
    if (this.exitUnannounced) {
      return reminderEntry(PLAN_MODE_EXIT_REMINDER, planModeExitedReminder());
    }
    return undefined;
  }
}

/**
 * P6: the reminder the next model request needs, if any, judged from the session's log and its
 * current mode. While plan mode is on: on the first request of the plan period, then whenever
 * five real user messages have passed since the last one; every fifth one (1st, 6th, 11th…) in
 * full. After plan mode ends: one "you may edit now" note on the next request.
 * The caller stores it as a synthetic user message, which is what later calls count.
 */
export function nextModeReminder(
  entries: readonly { entry: SessionEntry }[],
  mode: ExecutionMode,
): ModeReminder | undefined {
  const history = new PlanHistory();
  for (const { entry } of entries) history.add(entry);
  return history.reminderFor(mode);
}

function reminderEntry(reminder: string, text: string): ModeReminder {
  return { kind: "user.message", text, synthetic: true, reminder };
}
