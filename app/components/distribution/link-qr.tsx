// A link to share with its QR code and a copy button: the share links of /distribution and the
// invitation link. The URL is built in the browser on the page's own origin (as the share panel
// does), so links work behind any proxy or domain; the server renders the path until then.
import { CopyOutlined, DownloadOutlined } from "@ant-design/icons";
import { App, Button, Input, Space } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../lib/clipboard";
import { downloadUrl, makeQrDataUrl, safeFileName } from "../apps/share-panel";

type TProps = { path: string; name: string; testId: string; qrSize?: number };

export function LinkQr({ path, name, testId, qrSize = 160 }: TProps) {
  const { t } = useTranslation("distribution");
  const { message } = App.useApp();
  const [url, setUrl] = useState(path);
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    const full = `${window.location.origin}${path}`;
    setUrl(full);
    void makeQrDataUrl(full).then(setQr);
  }, [path]);
  const copy = async () => ((await copyText(url)) ? message.success(t("copied")) : message.error(t("copy_failed")));
  return (
    <div className="dist-link" data-testid={testId}>
      <div className="dist-link__qr" style={{ width: qrSize, height: qrSize }}>
        {qr && <img src={qr} alt={t("qr_alt", { name })} width={qrSize} height={qrSize} data-testid={`${testId}-qr`} />}
      </div>
      <div className="dist-link__body">
        <Space.Compact className="dist-link__field">
          <Input value={url} readOnly onFocus={(e) => e.currentTarget.select()} data-testid={`${testId}-url`} />
          <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid={`${testId}-copy`}>
            {t("copy")}
          </Button>
        </Space.Compact>
        {qr && (
          <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => downloadUrl(qr, safeFileName(name, "png"))}>
            {t("download_qr")}
          </Button>
        )}
      </div>
    </div>
  );
}
