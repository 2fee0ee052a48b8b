// One figure on /digital: its keyed still on a checkerboard, its name and state (and its price when
// it is for sale), and what can be done with it: key it, order its training, sell it, see why its
// check refused it, delete it. A bought figure is keyed and used, never trained or sold again.
import { DeleteOutlined, ExperimentOutlined, FileSearchOutlined, LoadingOutlined, ScissorOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Popconfirm, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { formatZ } from "../../../server/money/money-format";
import { FigureSellButton } from "./figure-shop-sell";
import { FigureStateTag } from "./figure-state-tag";
import { CardLink, FiguresCardFrame } from "./figures-card-frame";
import { isWorking, type TFigureView } from "./figures-client";

const USABLE = ["ready", "training", "train_failed"];

type TProps = { figure: TFigureView; busy: boolean; onDelete: (figure: TFigureView) => void; onChanged: () => void };

export function FigureCard({ figure, busy, onDelete, onChanged }: TProps) {
  const { t } = useTranslation("figures");
  const id = encodeURIComponent(figure.id);
  const usable = USABLE.includes(figure.state);
  const own = usable && !figure.purchased;
  const actions = [
    usable && <CardLink key="key" to={`/CreateCharacter?id=${id}`} icon={<ScissorOutlined />} label={t("card.key")} testId="figure-key" />,
    own && <CardLink key="train" to={`/figureTrain?id=${id}`} icon={<ExperimentOutlined />} label={t("card.train")} testId="figure-train" />,
    own && <FigureSellButton key="sell" figure={figure} onChanged={onChanged} />,
    !usable && <CardLink key="check" to={`/Createdigital?id=${id}`} icon={<FileSearchOutlined />} label={t("card.check")} testId="figure-check" />,
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
    <FiguresCardFrame
      testId="figure-card"
      id={figure.id}
      state={figure.state}
      orientation={figure.orientation}
      checker
      picture={
        figure.posterUrl ? (
          <img src={figure.posterUrl} alt={figure.name} className="figures-card__poster" data-testid="figure-poster" />
        ) : isWorking(figure) ? (
          <LoadingOutlined className="figures-card__placeholder" aria-label={t("state.checking")} />
        ) : (
          <UserOutlined className="figures-card__placeholder" aria-hidden />
        )
      }
      name={figure.name}
      nameTestId="figure-name"
      meta={
        <>
          <FigureStateTag figure={figure} />
          {figure.salePriceMicro !== null && (
            <Tag color="blue" data-testid="figure-on-sale">
              {t("sale.on_sale", { price: t("common:money.z", { amount: formatZ(figure.salePriceMicro) }) })}
            </Tag>
          )}
          <span>{t(`orientation.${figure.orientation}`)}</span>
        </>
      }
      actions={actions}
    />
  );
}
