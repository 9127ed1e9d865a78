// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { PermissionCard, type PermissionCardProps } from "./PermissionCard.tsx";
import { renderWithI18n } from "./renderWithI18n.tsx";
import { writeRequest } from "./testFixtures.ts";

function setup(extra: Partial<PermissionCardProps> = {}, lng: "en" | "zh-CN" = "en") {
  const props: PermissionCardProps = { request: writeRequest, onDecide: vi.fn(), ...extra };
  const view = renderWithI18n(<PermissionCard {...props} />, lng);
  const rerender = (more: Partial<PermissionCardProps>) =>
    view.rerender(<PermissionCard {...props} {...more} />);
  return { props, rerender, user: userEvent.setup() };
}

describe("PermissionCard", () => {
  it("names the tool in its strip and shows what it touches in monospace", () => {
    setup();
    const card = screen.getByRole("region", { name: "Allow Write?" });
    expect(card).toBeInTheDocument();
    expect(screen.getByText("src/app/config.ts").tagName).toBe("CODE");
  });

  it.each([
    ["Deny", "deny"],
    ["Allow once", "allow_once"],
    ["Always allow", "allow_always"],
  ] as const)("%s sends the %s decision", async (name, decision) => {
    const { props, user } = setup();
    await user.click(screen.getByRole("button", { name }));
    expect(props.onDecide).toHaveBeenCalledWith(decision);
    expect(props.onDecide).toHaveBeenCalledTimes(1);
  });

  it("[I6] latches its buttons until the receipt and re-arms on a rejection", async () => {
    const { props, rerender, user } = setup();
    await user.click(screen.getByRole("button", { name: "Deny" }));
    for (const name of ["Deny", "Allow once", "Always allow"])
      expect(screen.getByRole("button", { name })).toBeDisabled();
    rerender({ receipt: { ok: false, code: "ALREADY_ANSWERED" } });
    expect(screen.getByRole("alert")).toHaveTextContent("already answered");
    await user.click(screen.getByRole("button", { name: "Allow once" }));
    expect(props.onDecide).toHaveBeenLastCalledWith("allow_once");
  });

  it("[W2] renders its copy in zh-CN", () => {
    setup({}, "zh-CN");
    expect(screen.getByRole("region", { name: "允许 Write？" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "始终允许" })).toBeInTheDocument();
  });
});

describe("PermissionCard shows what it allows (W13)", () => {
  it("[W13] a Write shows the new file's content in a scrollable region", () => {
    setup({
      request: { ...writeRequest, input: { path: "notes.md", content: "# Notes\n\nline two" } },
    });
    const effect = screen.getByRole("region", { name: "New content of notes.md" });
    expect(effect).toHaveTextContent("line two");
    expect(effect).toHaveClass("qcard-scroll");
  });

  it("[W13] an Edit shows a diff of what it replaces", () => {
    setup({
      request: {
        ...writeRequest,
        toolName: "Edit",
        input: { path: "a.ts", old_string: "const a = 1;", new_string: "const a = 2;" },
      },
    });
    const effect = screen.getByRole("region", { name: "Changes to a.ts" });
    expect(effect.querySelector("del")).toHaveTextContent("const a = 1;");
    expect(effect.querySelector("ins")).toHaveTextContent("const a = 2;");
  });

  it("[W13] a command shows its full text", () => {
    const command = "npm run build && npm test -- --reporter=verbose";
    setup({
      request: { ...writeRequest, toolName: "Bash", summary: "npm run…", input: { command } },
    });
    expect(screen.getByRole("region", { name: "Command" })).toHaveTextContent(command);
  });

  it("[W13] names its content in zh-CN", () => {
    setup({ request: { ...writeRequest, input: { path: "n.md", content: "x" } } }, "zh-CN");
    expect(screen.getByRole("region", { name: "n.md 的新内容" })).toBeInTheDocument();
  });
});
