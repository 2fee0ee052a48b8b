// The card /digital shows figures and videos in: a picture (on a checkerboard while it may be
// see-through), the name, a line of facts, and the actions along its foot.
import { Card, Tooltip } from "antd";
import type { ReactNode } from "react";
import { AppLink } from "../app-link";

/** An action of the card's foot that opens another page: an icon, its label as the tooltip. */
export function CardLink({ to, icon, label, testId }: { to: string; icon: ReactNode; label: string; testId: string }) {
  return (
    <Tooltip title={label}>
      <AppLink to={to} aria-label={label} data-testid={testId} className="figures-card__action">
        {icon}
      </AppLink>
    </Tooltip>
  );
}

type TFrameProps = {
  testId: string;
  id: string;
  state?: string;
  orientation: string;
  checker: boolean;
  picture: ReactNode;
  name: string;
  nameTestId?: string;
  meta: ReactNode;
  actions: ReactNode[];
};

export function FiguresCardFrame({ testId, id, state, orientation, checker, picture, name, nameTestId, meta, actions }: TFrameProps) {
  return (
    <Card
      size="small"
      className="figures-card"
      data-testid={testId}
      data-id={id}
      data-state={state}
      cover={<div className={`figures-card__cover figures-card__cover--${orientation}${checker ? " figures-checker" : ""}`}>{picture}</div>}
      actions={actions}
    >
      <div className="figures-card__name" title={name} data-testid={nameTestId}>
        {name}
      </div>
      <div className="figures-card__meta">{meta}</div>
    </Card>
  );
}
