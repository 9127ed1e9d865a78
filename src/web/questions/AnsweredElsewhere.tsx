import { useTranslation } from "react-i18next";
import "./questions.css";

/** X3: the interaction this tab showed was settled by another tab or device. */
export function AnsweredElsewhere() {
  const { t } = useTranslation("question");
  return (
    <p className="qcard qelsewhere" role="status">
      {t("elsewhere.answered")}
    </p>
  );
}
