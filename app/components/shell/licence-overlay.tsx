import { Button, Modal, Result, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useShell } from "./shell-context";

const DISMISS_KEY = "licence_notice_dismissed";

function formatYmd(n: number | null) {
  if (!n) return "—";
  const s = String(n);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

/** 10001: closable reminder; 10002: cannot be closed, the deployment is read-only. */
export function LicenceOverlay() {
  const { t } = useTranslation();
  const { licenceNotice, contactPhone } = useShell();
  const [dismissed, setDismissed] = useState(false);
  // A Modal renders through a portal, which the server cannot: render it only once mounted, or
  // the first client render differs from the server's and hydration fails.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  useEffect(() => {
    setDismissed(sessionStorage.getItem(DISMISS_KEY) === String(licenceNotice?.end_time));
  }, [licenceNotice?.end_time]);
  if (!licenceNotice || !mounted) return null;
  const expired = licenceNotice.status === 10002;
  const open = expired || !dismissed;
  const close = () => {
    sessionStorage.setItem(DISMISS_KEY, String(licenceNotice.end_time));
    setDismissed(true);
  };
  const phone = licenceNotice.contact_phone ?? contactPhone;
  return (
    <Modal
      open={open}
      centered
      width={480}
      closable={!expired}
      maskClosable={!expired}
      keyboard={!expired}
      onCancel={expired ? undefined : close}
      footer={
        expired ? null : (
          <Button type="primary" onClick={close} data-testid="licence-close">
            {t("shell.licence.acknowledge")}
          </Button>
        )
      }
      data-testid={expired ? "licence-expired" : "licence-expiring"}
      zIndex={3000}
    >
      <Result
        status={expired ? "error" : "warning"}
        title={expired ? t("shell.licence.expired_title") : t("shell.licence.expiring_title")}
        subTitle={
          <div className="licence-detail">
            <Typography.Paragraph>{expired ? t("shell.licence.expired_body") : t("shell.licence.expiring_body")}</Typography.Paragraph>
            <Typography.Paragraph data-testid="licence-range">
              {t("shell.licence.validity", { start: formatYmd(licenceNotice.start_time), end: formatYmd(licenceNotice.end_time) })}
            </Typography.Paragraph>
            <Typography.Paragraph strong data-testid="licence-phone">
              {t("shell.licence.contact", { phone })}
            </Typography.Paragraph>
          </div>
        }
      />
    </Modal>
  );
}
