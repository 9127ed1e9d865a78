// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
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
  it("[W5] moves focus into a card that arrives while the message box is empty", () => {
    const { rerender } = render(<Page showCard={false} draft="" />);
    screen.getByRole("textbox", { name: "message" }).focus();
    rerender(<Page showCard draft="" />);
    expect(screen.getByRole("region", { name: "card" })).toHaveFocus();
  });

  it("[W5] leaves focus where the user is typing", () => {
    const { rerender } = render(<Page showCard={false} draft="half a thought" />);
    screen.getByRole("textbox", { name: "message" }).focus();
    rerender(<Page showCard draft="half a thought" />);
    expect(screen.getByRole("textbox", { name: "message" })).toHaveFocus();
  });
});
