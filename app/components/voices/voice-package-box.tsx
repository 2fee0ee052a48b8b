// The personal voice package box: the slots left and until when, or "no package" with what one
// costs and gives; buying asks first, pays from the balance (gift credit first), and names the
// request once per confirmation so a double click buys one package.
import { CrownOutlined } from "@ant-design/icons";
import { App, Button, Card, Skeleton, Tag, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { uiLocale } from "../../i18n/config";
import { useMutation } from "../../lib/use-mutation";
import { formatZ } from "../../../server/money/money-format";
import { newRequestId } from "../purchases/purchase-api";
import { voicesApi, type TVoicePackages } from "./voices-client";

export function VoicePackageBox({ packages, onBought }: { packages: TVoicePackages | null; onBought: () => void }) {
  const { t, i18n } = useTranslation("voices");
  const { modal, message } = App.useApp();
  const buy = useMutation(async (requestId: string) => {
    await voicesApi.buyPackage(requestId);
    void message.success(t("package.bought"));
    onBought();
  });
  if (!packages)
    return (
      <Card className="voice-package" data-testid="voice-package-box">
        <Skeleton active paragraph={{ rows: 2 }} />
      </Card>
    );

  const { offer, slotsLeft, expiresAt } = packages;
  const price = t("common:money.z", { amount: formatZ(offer.priceMicro) });
  const terms = { price, slots: offer.slots, days: offer.days };
  const anyOpen = packages.packages.some((p) => !p.expired);
  const confirmBuy = () => {
    const requestId = newRequestId();
    modal.confirm({
      title: t("package.confirm_title"),
      content: t("package.confirm_body", terms),
      okText: t("package.confirm_ok", { price }),
      cancelText: t("actions.cancel"),
      okButtonProps: { "data-testid": "voice-package-confirm" } as ButtonProps,
      onOk: () => buy.run(requestId),
    });
  };

  return (
    <Card className="voice-package" data-testid="voice-package-box" data-slots={slotsLeft}>
      <div className="voice-package__head">
        <CrownOutlined className="voice-package__icon" />
        <strong>{t("package.title")}</strong>
        {slotsLeft > 0 ? (
          <Tag color="success" data-testid="voice-package-slots">
            {t("package.slots_left", { count: slotsLeft })}
          </Tag>
        ) : (
          <Tag color="warning" data-testid="voice-package-slots">
            {anyOpen ? t("package.all_used") : t("package.none")}
          </Tag>
        )}
      </div>
      {slotsLeft > 0 && expiresAt ? (
        <p className="voice-package__line" data-testid="voice-package-expiry">
          {t("package.expires", { date: new Date(expiresAt).toLocaleDateString(uiLocale(i18n.language)) })}
        </p>
      ) : (
        <p className="voice-package__line">{t("package.none_hint", terms)}</p>
      )}
      <Button type={slotsLeft > 0 ? "default" : "primary"} onClick={confirmBuy} loading={buy.busy} data-testid="voice-package-buy">
        {t("package.buy", { price })}
      </Button>
    </Card>
  );
}
