import { HomeOutlined, WarningOutlined } from "@ant-design/icons";
import { useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { Button, Result, Spin } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { carryQuery } from "../../lib/carry-query";
import { readScanTarget } from "../../components/site/scan-target";
import { pageMeta } from "../../components/site/page-meta";
import "../../styles/site-pages.css";

export const handle = { i18n: ["mobi"] };

export const meta = pageMeta("Zelin · Scan");

export default function MobiScan() {
  const { t } = useTranslation("mobi");
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
