// Whether the creator's changes are on the server: saved, waiting, saving, or not saved (with why and a retry).
import { CheckCircleOutlined, ExclamationCircleOutlined, LoadingOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import type { TSaveState } from "./autosave";

export function SaveIndicator({ state, error, onRetry }: { state: TSaveState; error?: string | null; onRetry?: () => void }) {
  const { t } = useTranslation("digital");
  const icon = state === "saved" ? <CheckCircleOutlined /> : state === "failed" ? <ExclamationCircleOutlined /> : <LoadingOutlined />;
  return (
    <span className={`digital-save digital-save--${state}`} data-testid="digital-save-state" data-state={state} role="status">
      {icon}
      {state === "failed" ? (
        <Tooltip title={error}>
          <span>{t("editor.save.failed")}</span>
        </Tooltip>
      ) : (
        <span>{t(`editor.save.${state}`)}</span>
      )}
      {state === "failed" && onRetry && (
        <Button size="small" type="link" onClick={onRetry}>
          {t("editor.save.retry")}
        </Button>
      )}
    </span>
  );
}
