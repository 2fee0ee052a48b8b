// Above every library view: the type filter and today's allowance, with room for the page's actions.
import { Segmented } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TMediaKind, TMediaQuota } from "./media-client";

export function MediaToolbar({
  kind,
  onKind,
  quota,
  children,
}: {
  kind?: TMediaKind;
  onKind: (k: TMediaKind | undefined) => void;
  quota: TMediaQuota | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation("media");
  const left = quota ? Math.max(1, Math.ceil((new Date(quota.resetAt).getTime() - Date.now()) / 60_000)) : 0;
  return (
    <div className="media-toolbar">
      <Segmented
        value={kind ?? "all"}
        onChange={(v) => onKind(v === "all" ? undefined : (v as TMediaKind))}
        options={[
          { value: "all", label: t("kind.all") },
          { value: "image", label: t("kind.image") },
          { value: "video", label: t("kind.video") },
        ]}
        data-testid="media-kind"
      />
      {quota && (
        <span className={`media-toolbar__quota${quota.remaining ? "" : " media-toolbar__quota--full"}`} data-testid="media-quota" suppressHydrationWarning>
          {quota.remaining
            ? t("quota", { used: quota.used, limit: quota.limit, hours: Math.floor(left / 60), minutes: left % 60 })
            : t("quota_full", { limit: quota.limit })}
        </span>
      )}
      <div className="media-toolbar__actions">{children}</div>
    </div>
  );
}
