// Comments (up to 500 words) and replies (up to 150) on an app or agent, counted by countWords (a
// CJK character is a word); the newest first, more loaded near the bottom. Authors delete their own.
import { DeleteOutlined, MessageOutlined, UserOutlined } from "@ant-design/icons";
import { useLocation } from "@remix-run/react";
import { App, Avatar, Button, Input, Popconfirm, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText, fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { AppLink, useAppNavigate } from "../app-link";
import { LocalDate } from "../ui/local-date";
import { CardGrid } from "./market-cards";
import { useScrollPages } from "./use-scroll-pages";
import { COMMENT_MAX_WORDS, REPLY_MAX_WORDS, countWords, type TCommentView, type TPage, type TTargetType } from "../../../server/market/market.schema";

type TTarget = { targetType: TTargetType; targetId: string };

function CommentForm({
  target,
  parentId,
  signedIn,
  onSaved,
  autoFocus,
}: {
  target: TTarget;
  parentId?: string;
  signedIn: boolean;
  onSaved: (c: TCommentView) => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const navigate = useAppNavigate();
  const location = useLocation();
  const [text, setText] = useState("");
  // Kept apart from the hook's: it stays on the box while a new try runs, and names the field's problem first.
  const [error, setError] = useState<string | null>(null);
  const max = parentId ? REPLY_MAX_WORDS : COMMENT_MAX_WORDS;
  const words = countWords(text);

  const { run: post, busy } = useMutation(
    async () => {
      const saved = await callTrpc(() => trpc.market.comment.mutate({ ...target, parentId, content: text }));
      setText("");
      setError(null);
      onSaved(saved);
      message.success(t(parentId ? "comments.replied" : "comments.posted"));
    },
    {
      onError: (err) => {
        const description = fieldErrorsOf(err)[0]?.message ?? errorText(err);
        setError(description);
        message.error(description);
        return true;
      },
    },
  );
  const submit = async () => {
    if (!signedIn) return navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
    await post();
  };

  return (
    <div className="mk-comment-form">
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoSize={{ minRows: parentId ? 1 : 2, maxRows: 8 }}
        placeholder={t(parentId ? "comments.reply_placeholder" : "comments.placeholder")}
        autoFocus={autoFocus}
        status={error ? "error" : undefined}
        data-testid={parentId ? "reply-input" : "comment-input"}
      />
      <div className="mk-comment-form__row">
        <span className={`mk-count${words > max ? " is-over" : ""}`} data-testid="word-count">
          {t("comments.words", { count: words, max })}
        </span>
        <Button
          type="primary"
          size={parentId ? "small" : "middle"}
          loading={busy}
          disabled={!text.trim()}
          onClick={() => void submit()}
          data-testid={parentId ? "reply-submit" : "comment-submit"}
        >
          {t(parentId ? "comments.reply" : "comments.submit")}
        </Button>
      </div>
    </div>
  );
}

function CommentItem({ c, target, signedIn, onDeleted }: { c: TCommentView; target: TTarget; signedIn: boolean; onDeleted: () => void }) {
  const { t } = useTranslation("market");
  const { message } = App.useApp();
  const [replying, setReplying] = useState(false);
  const [replies, setReplies] = useState<TPage<TCommentView> | null>(null);
  const [replyCount, setReplyCount] = useState(c.replyCount);

  const { run: remove } = useMutation(async () => {
    await callTrpc(() => trpc.market.deleteComment.mutate({ id: c.id }));
    message.success(t("comments.deleted"));
    onDeleted();
  });
  const loadReplies = async (cursor?: string) => {
    const page = await callTrpc(() => trpc.market.replies.query({ parentId: c.id, cursor, limit: 20 }));
    setReplies((prev) => ({ items: [...(cursor ? (prev?.items ?? []) : []), ...page.items], nextCursor: page.nextCursor }));
  };

  return (
    <div className="mk-comment" data-testid="comment" data-id={c.id}>
      <AppLink to={`/customer?id=${c.author.id}`}>
        <Avatar size={32} src={c.author.avatarUrl ?? undefined} icon={<UserOutlined />} />
      </AppLink>
      <div className="mk-comment__body">
        <div className="mk-comment__meta">
          <b>{c.author.nickname}</b>
          <LocalDate iso={c.createdAt} withTime />
        </div>
        <p className="mk-comment__text" data-testid="comment-text">
          {c.content}
        </p>
        <div className="mk-comment__tools">
          <Button type="text" size="small" icon={<MessageOutlined />} onClick={() => setReplying((r) => !r)} data-testid="reply-toggle">
            {t("comments.reply")}
          </Button>
          {replyCount > 0 && !replies && (
            <Button type="link" size="small" onClick={() => void loadReplies()} data-testid="replies-toggle">
              {t("comments.show_replies", { count: replyCount })}
            </Button>
          )}
          {c.mine && (
            <Popconfirm
              title={t("comments.delete_confirm")}
              onConfirm={() => void remove()}
              okButtonProps={{ "data-testid": "comment-delete-ok" } as ButtonProps}
            >
              <Button type="text" size="small" danger icon={<DeleteOutlined />} data-testid="comment-delete">
                {t("comments.delete")}
              </Button>
            </Popconfirm>
          )}
        </div>
        {(replying || replies) && (
          <div className="mk-replies">
            {replying && (
              <CommentForm
                target={target}
                parentId={c.id}
                signedIn={signedIn}
                autoFocus
                onSaved={(r) => {
                  setReplying(false);
                  setReplyCount((n) => n + 1);
                  setReplies((prev) => ({ items: [...(prev?.items ?? []), r], nextCursor: prev?.nextCursor ?? null }));
                }}
              />
            )}
            {replies?.items.map((r) => (
              <ReplyItem
                key={r.id}
                r={r}
                onDeleted={() => (setReplies((prev) => prev && { ...prev, items: prev.items.filter((i) => i.id !== r.id) }), setReplyCount((n) => n - 1))}
              />
            ))}
            {replies?.nextCursor && (
              <Button type="link" size="small" onClick={() => void loadReplies(replies.nextCursor!)}>
                {t("comments.more_replies")}
              </Button>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

function ReplyItem({ r, onDeleted }: { r: TCommentView; onDeleted: () => void }) {
  const { t } = useTranslation("market");
  const { run: remove } = useMutation(async () => {
    await callTrpc(() => trpc.market.deleteComment.mutate({ id: r.id }));
    onDeleted();
  });
  return (
    <div className="mk-comment" data-testid="reply">
      <Avatar size={24} src={r.author.avatarUrl ?? undefined} icon={<UserOutlined />} />
      <div className="mk-comment__body">
        <div className="mk-comment__meta">
          <b>{r.author.nickname}</b>
          <LocalDate iso={r.createdAt} withTime />
          {r.mine && (
            <Popconfirm title={t("comments.delete_confirm")} onConfirm={() => void remove()}>
              <Button type="link" size="small" danger>
                {t("comments.delete")}
              </Button>
            </Popconfirm>
          )}
        </div>
        <p className="mk-comment__text">{r.content}</p>
      </div>
    </div>
  );
}

export function CommentSection({ target, initial, signedIn }: { target: TTarget; initial: TPage<TCommentView>; signedIn: boolean }) {
  const { t } = useTranslation("market");
  const list = useScrollPages(initial, (cursor) => trpc.market.comments.query({ ...target, cursor }));
  return (
    <div data-testid="comments">
      <CommentForm target={target} signedIn={signedIn} onSaved={list.prepend} />
      <CardGrid className="mk-comments" empty={t("comments.empty")} {...list} onRetry={() => void list.loadMore()}>
        {list.items.map((c) => (
          <CommentItem key={c.id} c={c} target={target} signedIn={signedIn} onDeleted={() => list.update(c.id, null)} />
        ))}
      </CardGrid>
    </div>
  );
}
