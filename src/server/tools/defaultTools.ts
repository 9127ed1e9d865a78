import { askUserQuestionTool } from "./askUserQuestion.ts";
import type { AnyToolContract } from "./contract.ts";
import { editTool } from "./edit.ts";
import { enterPlanModeTool } from "./enterPlanMode.ts";
import { exitPlanModeTool } from "./exitPlanMode.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { listModelsTool } from "./listModels.ts";
import { readTool } from "./read.ts";
import { readSessionContextTool } from "./readSessionContext.ts";
import { todoReadTool } from "./todoRead.ts";
import { todoWriteTool } from "./todoWrite.ts";
import { writeTool } from "./write.ts";

/** The tools every session offers; later features add theirs here. */
export function defaultTools(): AnyToolContract[] {
  return [
    readTool,
    globTool,
    grepTool,
    writeTool,
    editTool,
    askUserQuestionTool,
    enterPlanModeTool,
    exitPlanModeTool,
    todoWriteTool,
    todoReadTool,
    listModelsTool,
    readSessionContextTool,
  ];
}
