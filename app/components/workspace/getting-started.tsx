// The getting-started checklist: five steps from an agent to the first income, each ticked by the
// account's real data and linking to where it is done.
import { AppstoreOutlined, CheckCircleFilled, ReadOutlined, RiseOutlined, RobotOutlined, ShareAltOutlined } from "@ant-design/icons";
import { Button, Card, Progress, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TWorkspaceOverview, TWorkspaceStep } from "../../../server/workspace/workspace.schema";
import { AppLink } from "../app-link";

/** Where each step is done, and where to look once it is. */
const STEPS: Record<TWorkspaceStep, { icon: ReactNode; todo: string; done: string }> = {
  agent: { icon: <RobotOutlined />, todo: "/agentDetail", done: "/creator" },
  knowledge: { icon: <ReadOutlined />, todo: "/train", done: "/train" },
  publish: { icon: <AppstoreOutlined />, todo: "/create_app", done: "/my_app" },
  share: { icon: <ShareAltOutlined />, todo: "/my_app", done: "/distribution" },
  earn: { icon: <RiseOutlined />, todo: "/income", done: "/income" },
};

export function GettingStarted({ steps, done }: Pick<TWorkspaceOverview, "steps" | "done">) {
  const { t } = useTranslation("workspace");
  // The first step not done yet is the one to do next: its button is the primary one.
  const next = steps.find((s) => !s.done)?.key;
  return (
    <Card
      className="workspace__checklist"
      title={t("checklist.title")}
      extra={<span data-testid="checklist-progress">{t("checklist.progress", { done, total: steps.length })}</span>}
      data-testid="checklist"
    >
      <Progress percent={Math.round((done / steps.length) * 100)} showInfo={false} strokeColor="#4f46e5" />
      <ol className="workspace__steps">
        {steps.map((s, i) => (
          <li key={s.key} className={`workspace__step${s.done ? " is-done" : ""}`} data-testid={`step-${s.key}`} data-done={s.done ? "1" : "0"}>
            <span className="workspace__step-mark" aria-hidden="true">
              {s.done ? <CheckCircleFilled /> : i + 1}
            </span>
            <div className="workspace__step-text">
              <div className="workspace__step-title">
                {STEPS[s.key].icon} {t(`checklist.${s.key}.title`)}
                {s.done && (
                  <Tag color="success" className="workspace__step-tag">
                    {t(`checklist.${s.key}.count`, { count: s.count })}
                  </Tag>
                )}
              </div>
              <p className="workspace__step-body">{t(`checklist.${s.key}.body`)}</p>
            </div>
            <AppLink to={s.done ? STEPS[s.key].done : STEPS[s.key].todo} className="workspace__step-link" data-testid={`step-${s.key}-link`}>
              <Button type={s.key === next ? "primary" : "default"}>{t(s.done ? `checklist.${s.key}.done` : `checklist.${s.key}.todo`)}</Button>
            </AppLink>
          </li>
        ))}
      </ol>
      {done === steps.length && <p className="workspace__all-done">{t("checklist.all_done")}</p>}
    </Card>
  );
}
