import { PhoneOutlined } from "@ant-design/icons";
import { Button } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useShell } from "../shell/shell-context";
import { IconBadge } from "./icon-card";

/** The contact phone from the deployment's settings, with a call button for phones. */
export function ContactCard({ title, desc }: { title: ReactNode; desc?: ReactNode }) {
  const { t } = useTranslation("site");
  const { contactPhone } = useShell();
  return (
    <div className="sp-contact" data-testid="contact-card">
      <IconBadge icon={<PhoneOutlined />} tone="indigo" />
      <div className="sp-contact__body">
        <b>{title}</b>
        {desc && <span>{desc}</span>}
        <div className="sp-contact__phone">{contactPhone}</div>
      </div>
      <Button type="primary" href={`tel:${contactPhone.replace(/[^\d+]/g, "")}`} icon={<PhoneOutlined />}>
        {t("shared.call")}
      </Button>
    </div>
  );
}
