import { HomeOutlined, ScanOutlined, WarningOutlined } from "@ant-design/icons";
import { useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { Button, Result, Spin } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { carryQuery } from "../../lib/carry-query";
import { readScanTarget } from "../../components/site/scan-target";
import { H5Scanner, toSitePath } from "../../components/h5/h5-scanner";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";
import "../../styles/h5.css";

export const handle = { i18n: ["mobi", "h5"] };

export const meta = pageMeta("Zelin · Scan");

export default function MobiScan() {
  const { t } = useTranslation("mobi");
  const { t: th } = useTranslation("h5");
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const raw = params.get("target");
  const target = readScanTarget(raw);

  useEffect(() => {
    if (!target) return;
    // As useAppNavigate does (touser and the other query values ride along, phone paths stay on
    // /mobi), except that the scan's own `target` value is not carried to the destination.
    const rest = new URLSearchParams(location.search);
    rest.delete("target");
    navigate(carryQuery(target, rest.toString(), { mobi: true }), { replace: true });
  }, [target, location.search, navigate]);

  // What the camera or the pasted link read goes through ?target= like a scanned code does.
  const onRead = (text: string) => {
    const rest = new URLSearchParams(location.search);
    rest.set("target", toSitePath(text, window.location.origin) ?? text);
    navigate(`${location.pathname}?${rest}`, { replace: true });
  };

  // Back to the scanner, without the `target` that was refused.
  const scanAgain = () => {
    const rest = new URLSearchParams(location.search);
    rest.delete("target");
    const q = rest.toString();
    navigate(`${location.pathname}${q ? `?${q}` : ""}`, { replace: true });
  };

  if (raw === null) {
    return (
      <div className="sp-page mp" data-testid="mobi-scan">
        <section className="mp-card">
          <h1 style={{ fontSize: "1.3rem", margin: "0 0 4px" }}>{th("scan.title")}</h1>
          <p className="mp-card__lead" style={{ margin: "0 0 14px" }}>
            {th("scan.intro")}
          </p>
          <H5Scanner onRead={onRead} />
        </section>
      </div>
    );
  }

  if (target) {
    return (
      <div className="sp-page mp" data-testid="mobi-scan-opening">
        <div className="mp-center">
          <Spin size="large" description={t("scan.opening")}>
            <div style={{ width: 160, height: 80 }} />
          </Spin>
        </div>
      </div>
    );
  }

  return (
    <div className="sp-page mp" data-testid="mobi-scan-invalid">
      <div className="mp-card mp-center">
        <Result
          status="warning"
          icon={<WarningOutlined />}
          title={t("scan.invalid.title")}
          subTitle={raw ? t("scan.invalid.body") : t("scan.invalid.empty")}
          extra={
            <div style={{ display: "grid", gap: 12, justifyItems: "center" }}>
              {raw && (
                <div className="mp-formula" style={{ maxWidth: 320, wordBreak: "break-all", textAlign: "left" }}>
                  <span>{t("scan.invalid.content")}</span>
                  <code>{raw.length > 120 ? `${raw.slice(0, 120)}…` : raw}</code>
                </div>
              )}
              <Button icon={<ScanOutlined />} onClick={scanAgain} data-testid="h5-scan-again">
                {th("scan.again")}
              </Button>
              <AppLink to="/">
                <Button type="primary" icon={<HomeOutlined />}>
                  {t("scan.invalid.home")}
                </Button>
              </AppLink>
            </div>
          }
        />
      </div>
    </div>
  );
}
