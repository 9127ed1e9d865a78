import { useCallback, useEffect, useRef, useState } from "react";
import type { ReceiptView } from "./types.ts";

export type RejectedReceipt = Extract<ReceiptView, { ok: false }>;

/**
 * I6: after one action fires, every action stays disabled until a receipt arrives.
 * A receipt counts as new when it is a different object from the one present at the
 * click, so the store must keep each received receipt as its own object.
 */
export function useOneShotLatch(receipt: ReceiptView | undefined) {
  const [latched, setLatched] = useState(false);
  const [rejection, setRejection] = useState<RejectedReceipt | null>(null);
  const latchedRef = useRef(false);
  const receiptAtFire = useRef<ReceiptView | undefined>(undefined);

  useEffect(() => {
    if (!latchedRef.current || receipt === undefined || receipt === receiptAtFire.current) return;
    if (receipt.ok) return;
    latchedRef.current = false;
    setLatched(false);
    setRejection(receipt);
  }, [receipt]);

  const fire = useCallback(
    (action: () => void) => {
      if (latchedRef.current) return;
      latchedRef.current = true;
      receiptAtFire.current = receipt;
      setLatched(true);
      setRejection(null);
      action();
    },
    [receipt],
  );

  return { latched, rejection, fire };
}
