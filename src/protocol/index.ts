export * from "./entries.ts";
export * from "./errors.ts";
export * from "./frames.ts";
export * from "./interactions.ts";
export * from "./modes.ts";
export * from "./question.ts";
export * from "./settings.ts";
export * from "./todos.ts";
