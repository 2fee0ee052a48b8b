// My workshops (/workshopList): each workshop's roles, nodes and runs, and the ways on from it:
// edit its roles and nodes, edit its information, run it, publish it as an app, delete it. With
// none yet, what a workshop is and the button to make the first.
import { ApartmentOutlined, DeleteOutlined, EditOutlined, PlayCircleOutlined, PlusOutlined, SendOutlined, TeamOutlined } from "@ant-design/icons";
import { useRevalidator } from "@remix-run/react";
import { App, Avatar, Button, Card, Col, Row, Typography, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { LocalDate } from "../ui/local-date";
import type { TWorkshopSummary } from "../../../server/workshops/workshops.schema";
import { newWorkshopPath, publishWorkshopPath, useWorkshopNavigate, workshopEditorPath, workshopInfoPath, workshopRunPath } from "./workshop-links";
import "./workshops.css";

function WorkshopCard({ workshop, busy, onDelete }: { workshop: TWorkshopSummary; busy: boolean; onDelete: () => void }) {
  const { t } = useTranslation("workshops");
  const navigate = useWorkshopNavigate();
  const ready = workshop.roleCount > 0 && workshop.nodeCount > 0;
  return (
    <Card className="ws-card" data-testid="workshop-row" data-id={workshop.id} data-name={workshop.name}>
      <div className="ws-card__top">
        <Avatar size={52} shape="square" src={workshop.iconUrl || undefined} icon={<ApartmentOutlined />} className="ws-card__icon" />
        <div className="ws-card__body">
          <div className="ws-card__name">{workshop.name}</div>
          <div className="ws-card__intro">{workshop.description || t("list.no_description")}</div>
          <div className="ws-card__meta">
            <span data-testid="workshop-counts">
              {t("list.roles", { count: workshop.roleCount })} · {t("list.nodes", { count: workshop.nodeCount })}
            </span>
            <span>{t("list.runs", { count: workshop.runCount })}</span>
            <span>
              {t("list.updated")} <LocalDate iso={workshop.updatedAt} />
            </span>
          </div>
          {!ready && <div className="ws-card__note">{t("list.incomplete")}</div>}
        </div>
      </div>
      <div className="ws-card__actions">
        <Button size="small" type="primary" icon={<TeamOutlined />} onClick={() => navigate(workshopEditorPath(workshop.id))} data-testid="workshop-edit">
          {t("list.edit_roles")}
        </Button>
        <Button size="small" icon={<EditOutlined />} onClick={() => navigate(workshopInfoPath(workshop.id))} data-testid="workshop-info">
          {t("list.edit_info")}
        </Button>
        <Button size="small" icon={<PlayCircleOutlined />} disabled={!ready} onClick={() => navigate(workshopRunPath(workshop.id))} data-testid="workshop-run">
          {t("list.run")}
        </Button>
        <Button
          size="small"
          icon={<SendOutlined />}
          disabled={!ready}
          onClick={() => navigate(publishWorkshopPath(workshop.id))}
          data-testid="workshop-publish"
        >
          {t("list.publish")}
        </Button>
        <Button size="small" danger icon={<DeleteOutlined />} loading={busy} onClick={onDelete} data-testid="workshop-delete">
          {t("list.delete")}
        </Button>
      </div>
    </Card>
  );
}

/** What a workshop is, for a developer who has none yet. */
function EmptyWorkshops({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation("workshops");
  const steps = [
    { key: "roles", icon: <TeamOutlined /> },
    { key: "nodes", icon: <ApartmentOutlined /> },
    { key: "run", icon: <PlayCircleOutlined /> },
    { key: "publish", icon: <SendOutlined /> },
  ];
  return (
    <Card className="ws-empty" data-testid="workshops-empty">
      <h2 className="ws-empty__title">{t("list.empty.title")}</h2>
      <p className="ws-empty__lead">{t("list.empty.lead")}</p>
      <ol className="ws-empty__steps">
        {steps.map((s) => (
          <li key={s.key}>
            <span className="ws-empty__icon">{s.icon}</span>
            <div>
              <b>{t(`list.empty.steps.${s.key}.title`)}</b>
              <span>{t(`list.empty.steps.${s.key}.text`)}</span>
            </div>
          </li>
        ))}
      </ol>
      <Button type="primary" size="large" icon={<PlusOutlined />} onClick={onCreate} data-testid="workshops-empty-create">
        {t("list.create")}
      </Button>
    </Card>
  );
}

export function WorkshopListPage({ workshops }: { workshops: TWorkshopSummary[] }) {
  const { t } = useTranslation("workshops");
  const { message, modal } = App.useApp();
  const navigate = useWorkshopNavigate();
  const revalidator = useRevalidator();
  const remove = useMutation(async (id: string) => {
    await callTrpc(() => trpc.workshops.remove.mutate({ id }));
    message.success(t("list.deleted"));
    revalidator.revalidate();
  });
  const confirmDelete = (w: TWorkshopSummary) =>
    modal.confirm({
      title: t("list.delete_confirm", { name: w.name }),
      content: t("list.delete_hint"),
      okText: t("list.delete"),
      okButtonProps: { danger: true, "data-testid": "workshop-delete-ok" } as ButtonProps,
      onOk: () => remove.run(w.id),
    });
  const create = () => navigate(newWorkshopPath());
  return (
    <div className="console__page ws-page ws" data-testid="workshops-page">
      <div className="ws-page__head">
        <h1 className="console__title">{t("list.title")}</h1>
        {workshops.length > 0 && (
          <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="workshop-create">
            {t("list.create")}
          </Button>
        )}
      </div>
      <Typography.Paragraph type="secondary" className="ws-page__intro">
        {t("list.intro")}
      </Typography.Paragraph>
      {workshops.length === 0 ? (
        <EmptyWorkshops onCreate={create} />
      ) : (
        <Row gutter={[12, 12]}>
          {workshops.map((w) => (
            <Col key={w.id} xs={24} xl={12}>
              <WorkshopCard workshop={w} busy={remove.busyKey === w.id} onDelete={() => confirmDelete(w)} />
            </Col>
          ))}
        </Row>
      )}
      <div className="ws-page__foot">
        <Typography.Text type="secondary">{t("list.apps_hint")}</Typography.Text>
        <Button type="link" size="small" onClick={() => navigate("/my_app?type=workshop")} data-testid="workshop-my-apps">
          {t("list.apps_link")}
        </Button>
      </div>
    </div>
  );
}
