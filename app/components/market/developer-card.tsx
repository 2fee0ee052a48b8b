// The developer of an app or agent: picture, name (to their page), followers, listings, follow.
import { UserOutlined } from "@ant-design/icons";
import { Avatar } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "../app-link";
import { FollowButton } from "./social-buttons";
import type { TDeveloperView } from "../../../server/market/catalog.service";

export function DeveloperCard({ developer, signedIn, following }: { developer: TDeveloperView; signedIn: boolean; following: boolean }) {
  const { t } = useTranslation("market");
  const [followers, setFollowers] = useState(developer.followers);
  return (
    <aside className="mk-panel mk-dev" data-testid="developer-card">
      <Avatar size={64} src={developer.avatarUrl ?? undefined} icon={<UserOutlined />} />
      <h3>
        <AppLink to={`/customer?id=${developer.id}`} data-testid="developer-link">
          {developer.nickname}
        </AppLink>
      </h3>
      <div className="mk-dev__stats">
        <span>
          <b data-testid="follower-count">{followers}</b>
          {t("developer.followers")}
        </span>
        <span>
          <b>{developer.apps}</b>
          {t("developer.apps")}
        </span>
        <span>
          <b>{developer.agents}</b>
          {t("developer.agents")}
        </span>
      </div>
      <FollowButton accountId={developer.id} signedIn={signedIn} following={following} onChange={setFollowers} />
    </aside>
  );
}
