// The buttons of a set's actions: edit, the moves its state allows, delete.
import { DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, RedoOutlined, StopOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TTrainingSetSummary } from "../../../server/knowledge/training-sets.schema";
import { AppLink } from "../app-link";
import { actionsFor, editPathOf } from "./train-format";
import type { TSetAction } from "./use-set-actions";

const ICONS: Record<TSetAction, ReactNode> = {
  stop: <PauseCircleOutlined />,
  disable: <StopOutlined />,
  enable: <PlayCircleOutlined />,
  retrain: <RedoOutlined />,
  delete: <DeleteOutlined />,
};

type TProps = { set: TTrainingSetSummary; busy: boolean; onAction: (kind: TSetAction) => void; withEdit?: boolean; size?: "small" | "middle" };

export function SetActionButtons({ set, busy, onAction, withEdit = true, size = "small" }: TProps) {
  const { t } = useTranslation("train");
  const kinds: TSetAction[] = [...actionsFor(set.state, set.type), "delete"];
  return (
    <Space wrap size={4}>
      {withEdit && (
        <AppLink to={editPathOf(set)} data-testid={`train-edit-${set.id}`}>
          <Button size={size} type="link" icon={<EditOutlined />}>
            {t("actions.edit")}
          </Button>
        </AppLink>
      )}
      {kinds.map((k) => (
        <Button
          key={k}
          size={size}
          type={withEdit ? "link" : "default"}
          danger={k === "delete"}
          icon={ICONS[k]}
          disabled={busy}
          onClick={() => onAction(k)}
          data-testid={`train-${k}`}
        >
          {t(`actions.${k}`)}
        </Button>
      ))}
    </Space>
  );
}
