// Personal WeChat's login QR code, drawn in the browser from the content the puppet gave the
// gateway (login_qr); it is redrawn whenever the gateway reports a fresh one.
import { Spin } from "antd";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Large enough for a phone's camera to read off a laptop screen. */
const QR_PX = 220;

export function WechatLoginQr({ content }: { content: string | null }) {
  const { t } = useTranslation("bots");
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!content) return setSrc(null);
    void QRCode.toDataURL(content, { errorCorrectionLevel: "M", margin: 2, width: QR_PX * 2, color: { dark: "#000000", light: "#ffffff" } }).then(
      (url) => live && setSrc(url),
    );
    return () => {
      live = false;
    };
  }, [content]);
  return (
    <div className="bots-qr" data-testid="bot-login-qr-box">
      {content && src ? (
        <img src={src} alt={t("status.qr_alt")} width={QR_PX} height={QR_PX} data-testid="bot-login-qr" data-content={content} />
      ) : (
        <div className="bots-qr__wait" data-testid="bot-login-qr-waiting">
          <Spin />
          <span>{t("status.qr_waiting")}</span>
        </div>
      )}
    </div>
  );
}
