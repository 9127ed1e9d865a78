// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderShell } from "../testing/renderShell.tsx";
import { NotifyDeviceButton } from "./NotifyDeviceButton.tsx";

describe("notify this device", () => {
  it("[U3] subscribes on a click and says so", async () => {
    const user = userEvent.setup();
    renderShell(<NotifyDeviceButton subscribe={async () => "subscribed"} />);
    await user.click(screen.getByRole("button", { name: "Notify this device" }));
    expect(await screen.findByRole("status")).toHaveTextContent("gets a notification");
  });

  it("[U3] says why when the browser cannot", async () => {
    const user = userEvent.setup();
    renderShell(<NotifyDeviceButton subscribe={async () => "unsupported"} />, {
      language: "zh-CN",
    });
    await user.click(screen.getByRole("button", { name: "在此设备上通知我" }));
    expect(await screen.findByRole("status")).toHaveTextContent("https");
    expect(screen.getByRole("button", { name: "在此设备上通知我" })).toBeEnabled();
  });
});
