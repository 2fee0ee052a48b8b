// Like, collect and follow. Each asks the server, which refuses a repeat ("already liked",
// "cannot collect repeatedly", "cannot follow yourself") and the page shows its message; undoing
// is its own small action. Signed-out readers are sent to log in first.
import { HeartFilled, HeartOutlined, StarFilled, StarOutlined, UserAddOutlined, CheckOutlined } from "@ant-design/icons";
import { useLocation } from "@remix-run/react";
import { App, Button, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { useAppNavigate } from "../app-link";
import type { TTargetType } from "../../../server/market/market.schema";

function useAct() {
  const navigate = useAppNavigate();
  const location = useLocation();
  const attempt = useMutation((_key: string, run: () => Promise<unknown>) => callTrpc(run));
  const act = async <T,>(key: string, signedIn: boolean, run: () => Promise<T>): Promise<T | null> => {
    if (!signedIn) {
      navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return null;
    }
    return ((await attempt.run(key, run)) as T | undefined) ?? null;
  };
  return { act, busy: attempt.busyKey };
}

type TReactionProps = {
  targetType: TTargetType;
  targetId: string;
  signedIn: boolean;
  liked: boolean;
  collected: boolean;
  likeCount: number;
  collectCount: number;
};

export function ReactionButtons(p: TReactionProps) {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const { act, busy } = useAct();
  const [state, setState] = useState({ liked: p.liked, collected: p.collected, likes: p.likeCount, collects: p.collectCount });
  const target = { targetType: p.targetType, targetId: p.targetId };

  const like = async () => {
    if ((await act("like", p.signedIn, () => trpc.market.react.mutate({ ...target, kind: "like" }))) === null) return;
    setState((s) => ({ ...s, liked: true, likes: s.likes + 1 }));
    message.success(t("social.liked"));
  };
  const unlike = async () => {
    if ((await act("unlike", p.signedIn, () => trpc.market.unreact.mutate({ ...target, kind: "like" }))) === null) return;
    setState((s) => ({ ...s, liked: false, likes: Math.max(0, s.likes - 1) }));
  };
  const collect = async () => {
    if ((await act("collect", p.signedIn, () => trpc.market.react.mutate({ ...target, kind: "collect" }))) === null) return;
    setState((s) => ({ ...s, collected: true, collects: s.collects + 1 }));
    message.success(t("social.collected"));
  };
  const uncollect = async () => {
    if ((await act("uncollect", p.signedIn, () => trpc.market.unreact.mutate({ ...target, kind: "collect" }))) === null) return;
    setState((s) => ({ ...s, collected: false, collects: Math.max(0, s.collects - 1) }));
  };

  return (
    <Space wrap size={8}>
      <Space.Compact>
        <Button
          icon={state.liked ? <HeartFilled style={{ color: "#e11d48" }} /> : <HeartOutlined />}
          loading={busy === "like"}
          onClick={() => void like()}
          data-testid="like-button"
          data-liked={state.liked}
        >
          {t(state.liked ? "social.liked_label" : "social.like")} <span data-testid="like-count">{state.likes}</span>
        </Button>
        {state.liked && (
          <Button loading={busy === "unlike"} onClick={() => void unlike()} data-testid="unlike-button">
            {t("social.undo")}
          </Button>
        )}
      </Space.Compact>
      <Space.Compact>
        <Button
          icon={state.collected ? <StarFilled style={{ color: "#f59e0b" }} /> : <StarOutlined />}
          loading={busy === "collect"}
          onClick={() => void collect()}
          data-testid="collect-button"
          data-collected={state.collected}
        >
          {t(state.collected ? "social.collected_label" : "social.collect")} <span data-testid="collect-count">{state.collects}</span>
        </Button>
        {state.collected && (
          <Button loading={busy === "uncollect"} onClick={() => void uncollect()} data-testid="uncollect-button">
            {t("social.undo")}
          </Button>
        )}
      </Space.Compact>
    </Space>
  );
}

export function FollowButton({
  accountId,
  signedIn,
  following: initial,
  onChange,
}: {
  accountId: string;
  signedIn: boolean;
  following: boolean;
  onChange?: (followers: number) => void;
}) {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const { act, busy } = useAct();
  const [following, setFollowing] = useState(initial);
  const follow = async () => {
    const res = await act("follow", signedIn, () => trpc.market.follow.mutate({ accountId }));
    if (!res) return;
    setFollowing(true);
    onChange?.(res.followers);
    message.success(t("social.followed"));
  };
  const unfollow = async () => {
    const res = await act("unfollow", signedIn, () => trpc.market.unfollow.mutate({ accountId }));
    if (!res) return;
    setFollowing(false);
    onChange?.(res.followers);
  };
  return following ? (
    <Button icon={<CheckOutlined />} loading={busy === "unfollow"} onClick={() => void unfollow()} data-testid="unfollow-button">
      {t("social.following")}
    </Button>
  ) : (
    <Button type="primary" icon={<UserAddOutlined />} loading={busy === "follow"} onClick={() => void follow()} data-testid="follow-button">
      {t("social.follow")}
    </Button>
  );
}
