// /digital: two tabs. "My figures": my figures as cards (the keyed still on a checkerboard, the
// name, the state, and key, train, sell and delete), the button that films a new one, and how to
// start when there is none yet; figures still being checked are asked about again until they settle;
// below them, my digital-human videos (made in the editor, /CreateAppDigital). "Figure shop"
// (?tab=shop): other creators' figures for sale; one bought joins my figures.
import { PlusOutlined } from "@ant-design/icons";
import { useSearchParams } from "@remix-run/react";
import { Alert, App, Button, Empty, Skeleton, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { AppLink } from "../../components/app-link";
import { FigureCard } from "../../components/figures/figure-card";
import { FigureShop } from "../../components/figures/figure-shop";
import { figuresApi, isWorking } from "../../components/figures/figures-client";
import { FIGURE_POLL_MS } from "../../components/figures/use-figure";
import { VideoList } from "../../components/figures/video-list";
import { useLoadedList } from "../../lib/use-loaded-list";
import { useMutation } from "../../lib/use-mutation";
import "../../components/figures/figures.css";

export const handle = { i18n: ["figures"] };

function HowToStart() {
  const { t } = useTranslation("figures");
  return (
    <Empty
      className="figures-empty"
      data-testid="figures-empty"
      description={
        <div className="figures-empty__text">
          <strong>{t("list.empty_title")}</strong>
          <ol>
            <li>{t("list.empty_step_film")}</li>
            <li>{t("list.empty_step_key")}</li>
            <li>{t("list.empty_step_use")}</li>
          </ol>
        </div>
      }
    >
      <AppLink to="/Createdigital">
        <Button type="primary" icon={<PlusOutlined />}>
          {t("list.create")}
        </Button>
      </AppLink>
    </Empty>
  );
}

type TTab = "mine" | "shop";

export default function DigitalPage() {
  const { t } = useTranslation("figures");
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const tab: TTab = params.get("tab") === "shop" ? "shop" : "mine";
  const { items: figures, error, load } = useLoadedList(figuresApi.list, { while: isWorking, everyMs: FIGURE_POLL_MS });
  const remove = useMutation(async (id: string) => {
    await figuresApi.remove(id);
    void message.success(t("card.deleted"));
    await load();
  });
  const switchTo = (next: string) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (next === "shop") out.set("tab", "shop");
        else out.delete("tab");
        return out;
      },
      { replace: true, preventScrollReset: true },
    );
  const mine = (
    <>
      <section aria-labelledby="figures-title">
        <h2 id="figures-title" className="figures-section__title">
          {t("list.figures")}
        </h2>
        {error && <Alert type="error" showIcon message={error} className="figures-page__error" />}
        {figures === null ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : figures.length === 0 ? (
          <HowToStart />
        ) : (
          <ul className="figures-grid" data-testid="figures-grid">
            {figures.map((figure) => (
              <li key={figure.id} className="figures-grid__cell">
                <FigureCard figure={figure} busy={remove.busyKey === figure.id} onDelete={(f) => void remove.run(f.id)} onChanged={() => void load()} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <VideoList />
    </>
  );
  return (
    <div className="figures-page" data-testid="digital-page">
      <div className="figures-page__head">
        <h1 className="console__title">{t("title.digital")}</h1>
        <AppLink to="/Createdigital">
          <Button type="primary" icon={<PlusOutlined />} data-testid="figures-create">
            {t("list.create")}
          </Button>
        </AppLink>
      </div>
      <p className="console__hint">{t("intro.digital")}</p>
      <Tabs
        activeKey={tab}
        onChange={switchTo}
        className="figures-tabs"
        items={[
          { key: "mine", label: <span data-testid="figures-tab-mine">{t("list.figures")}</span>, children: mine },
          {
            key: "shop",
            label: <span data-testid="figures-tab-shop">{t("shop.title")}</span>,
            children: <FigureShop onBought={() => void load()} />,
          },
        ]}
      />
    </div>
  );
}
