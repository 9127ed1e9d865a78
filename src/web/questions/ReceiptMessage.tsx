import { useTranslation } from "../i18n/useTranslation.tsx";
import type { RejectedReceipt } from "./useOneShotLatch.ts";

/** I6: why the last answer did not go through, in the user's language. */
export function ReceiptMessage({ rejection }: { rejection: RejectedReceipt }) {
  const { t } = useTranslation("question");
  const text = rejection.code === undefined ? t("receipt.unknown") : t(`receipt.${rejection.code}`);
  return (
    <p className="qcard-error" role="alert">
      {text}
    </p>
  );
}
