import { Card, Descriptions, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../ui/local-date";

type TProps = { edition: string; expiresAt: string | null; limits: Record<string, number | null> };

export function EditionCard({ edition, expiresAt, limits }: TProps) {
  const { t } = useTranslation("auth");
  const show = (n: number | null) => (n === null ? t("settings.unlimited") : String(n));
  return (
    <Card title={t("settings.edition")} data-testid="edition-card">
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        <Descriptions.Item label={t("settings.edition")}>
          <Tag color="purple" data-testid="edition-name">
            {t(`editions.${edition}`, { ns: "common" })}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t("settings.expires")}>{expiresAt ? <LocalDate iso={expiresAt} /> : "—"}</Descriptions.Item>
        {(["agents", "trainingSets", "apps", "bots", "chatsPerDay"] as const).map((k) => (
          <Descriptions.Item key={k} label={t(`settings.limits.${k}`)}>
            {show(limits[k] ?? null)}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );
}
