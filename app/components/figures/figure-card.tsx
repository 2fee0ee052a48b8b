// One figure on /digital: its keyed still on a checkerboard, its name and state, and what can be done
// with it: key it, order its training, see why its check refused it, delete it.
import { DeleteOutlined, ExperimentOutlined, FileSearchOutlined, LoadingOutlined, ScissorOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Card, Popconfirm, Tooltip } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { FigureStateTag } from "./figure-state-tag";
import { isWorking, type TFigureView } from "./figures-client";

const USABLE = ["ready", "training", "train_failed"];

function ActionLink({ to, icon, label, testId }: { to: string; icon: ReactNode; label: string; testId: string }) {
  return (
    <Tooltip title={label}>
      <AppLink to={to} aria-label={label} data-testid={testId} className="figures-card__action">
        {icon}
      </AppLink>
    </Tooltip>
  );
}

export function FigureCard({ figure, busy, onDelete }: { figure: TFigureView; busy: boolean; onDelete: (figure: TFigureView) => void }) {
  const { t } = useTranslation("figures");
  const id = encodeURIComponent(figure.id);
  const usable = USABLE.includes(figure.state);
  const actions = [
    usable && <ActionLink key="key" to={`/CreateCharacter?id=${id}`} icon={<ScissorOutlined />} label={t("card.key")} testId="figure-key" />,
    usable && <ActionLink key="train" to={`/figureTrain?id=${id}`} icon={<ExperimentOutlined />} label={t("card.train")} testId="figure-train" />,
    !usable && <ActionLink key="check" to={`/Createdigital?id=${id}`} icon={<FileSearchOutlined />} label={t("card.check")} testId="figure-check" />,
    <Popconfirm
      key="delete"
      title={t("card.delete_confirm", { name: figure.name })}
      okText={t("card.delete")}
      okButtonProps={{ danger: true, "data-testid": "figure-delete-confirm" } as never}
      onConfirm={() => onDelete(figure)}
      disabled={figure.state === "training"}
    >
      <Tooltip title={figure.state === "training" ? t("card.delete_training") : t("card.delete")}>
        <Button
          type="text"
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t("card.delete")}
          loading={busy}
          disabled={figure.state === "training"}
          data-testid="figure-delete"
        />
      </Tooltip>
    </Popconfirm>,
  ].filter(Boolean);
  return (
    <Card
      size="small"
      className="figures-card"
      data-testid="figure-card"
      data-id={figure.id}
      data-state={figure.state}
      cover={
        <div className={`figures-card__cover figures-card__cover--${figure.orientation} figures-checker`}>
          {figure.posterUrl ? (
            <img src={figure.posterUrl} alt={figure.name} className="figures-card__poster" data-testid="figure-poster" />
          ) : isWorking(figure) ? (
            <LoadingOutlined className="figures-card__placeholder" aria-label={t("state.checking")} />
          ) : (
            <UserOutlined className="figures-card__placeholder" aria-hidden />
          )}
        </div>
      }
      actions={actions}
    >
      <div className="figures-card__name" title={figure.name} data-testid="figure-name">
        {figure.name}
      </div>
      <div className="figures-card__meta">
        <FigureStateTag figure={figure} />
        <span>{t(`orientation.${figure.orientation}`)}</span>
      </div>
    </Card>
  );
}
