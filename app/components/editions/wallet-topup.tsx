// Top-up beside the balance on the membership card, for the page a phone tops up on (/mobi/upgrade,
// where the H5 chat's plan sheet sends a buyer short of coins; it has no console header). A payer
// back from the sandbox's cashier finds the result open; `?return=` (a path on this site) offers
// the way back to where the top-up was started.
import { ArrowLeftOutlined, WalletOutlined } from "@ant-design/icons";
import { useRevalidator, useSearchParams } from "@remix-run/react";
import { Button, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toSafeRedirect } from "../../../server/lib/safe-redirect";
import { useResumedTopup } from "../money/cashier-return";
import { RechargeDialog } from "../money/recharge-dialog";

export function WalletTopup() {
  const { t } = useTranslation("editions");
  const [open, setOpen] = useState(false);
  const { resume, clear } = useResumedTopup();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const back = toSafeRedirect(params.get("return"), "");
  return (
    <Space wrap size={4}>
      {back && (
        <Button size="small" type="link" href={back} icon={<ArrowLeftOutlined />} data-testid="wallet-topup-back">
          {t("wallet.back")}
        </Button>
      )}
      <Button size="small" type="primary" icon={<WalletOutlined />} onClick={() => setOpen(true)} data-testid="wallet-topup">
        {t("wallet.recharge")}
      </Button>
      <RechargeDialog
        open={open || Boolean(resume)}
        resumeOrder={resume}
        onClose={() => {
          setOpen(false);
          clear();
        }}
        onPaid={() => revalidator.revalidate()}
      />
    </Space>
  );
}
