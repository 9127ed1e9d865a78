// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import { useRef } from "react";
import { useClaimFocus } from "./useClaimFocus.ts";

function Card() {
  const ref = useRef<HTMLElement>(null);
  useClaimFocus(ref);
  return (
    <section ref={ref} tabIndex={-1} aria-label="card">
      card
    </section>
  );
}

function Page({ showCard, draft }: { showCard: boolean; draft: string }) {
  return (
    <>
      <textarea
        aria-label="message"
        defaultValue={draft}
        data-yields-focus={draft === "" ? "true" : undefined}
      />
      {showCard && <Card />}
    </>
  );
}

describe("useClaimFocus", () => {
  it("[W5] moves focus into a card that arrives while the message box is empty", async () => {
    const { rerender } = render(<Page showCard={false} draft="" />);
    screen.getByRole("textbox", { name: "message" }).focus();
    rerender(<Page showCard draft="" />);
    await waitFor(() => expect(screen.getByRole("region", { name: "card" })).toHaveFocus());
  });

  it("[W5] takes focus in the next frame, not in the task that commits the card", async () => {
    const { rerender } = render(<Page showCard={false} draft="" />);
    screen.getByRole("textbox", { name: "message" }).focus();
    rerender(<Page showCard draft="" />);
    expect(screen.getByRole("textbox", { name: "message" })).toHaveFocus();
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(screen.getByRole("region", { name: "card" })).toHaveFocus();
  });

  it("[W5] does not take focus from a box the user started typing in before the frame", async () => {
    const { rerender } = render(<Page showCard={false} draft="" />);
    const box = screen.getByRole("textbox", { name: "message" });
    box.focus();
    rerender(<Page showCard draft="" />);
    box.removeAttribute("data-yields-focus");
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(box).toHaveFocus();
  });

  it("[W5] leaves focus where the user is typing", async () => {
    const { rerender } = render(<Page showCard={false} draft="half a thought" />);
    screen.getByRole("textbox", { name: "message" }).focus();
    rerender(<Page showCard draft="half a thought" />);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(screen.getByRole("textbox", { name: "message" })).toHaveFocus();
  });
});
