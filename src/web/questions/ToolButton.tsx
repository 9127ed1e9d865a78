import type { ButtonHTMLAttributes } from "react";

export interface ToolButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  label: string;
  /** What a phone shows instead, so the card's tools share one line (planReview.css). */
  short?: string;
}

/** A plan card's tool, drawn as a link. Its whole label stays its name where `short` shows. */
export function ToolButton({ label, short, ...props }: ToolButtonProps) {
  return (
    <button
      type="button"
      className="qbtn qbtn--link"
      aria-label={label}
      data-short={short}
      {...props}
    >
      <span>{label}</span>
    </button>
  );
}
