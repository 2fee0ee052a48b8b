// The consumer's earlier dialogues with this app, in a sheet over the chat.
import { PlusOutlined } from "@ant-design/icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchDialogues, type TAppDialogue } from "./h5-api";
import { uiLocale } from "../../i18n/config";
import { H5Sheet } from "./h5-sheet";

type TProps = { appId: string; currentId: string | null; onPick: (id: string) => void; onNew: () => void; onClose: () => void };

export function H5History({ appId, currentId, onPick, onNew, onClose }: TProps) {
  const { t, i18n } = useTranslation("h5");
  const [list, setList] = useState<TAppDialogue[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    fetchDialogues(appId)
      .then((l) => live && setList(l))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [appId]);

  const when = (d: TAppDialogue) => {
    const at = d.updated_at ?? d.created_at;
    return at ? new Date(at).toLocaleString(uiLocale(i18n.language), { dateStyle: "short", timeStyle: "short" }) : "";
  };

  return (
    <H5Sheet title={t("history.title")} closeLabel={t("history.close")} testId="h5-history" onClose={onClose}>
      <button type="button" className="h5-btn h5-btn--block" onClick={onNew} data-testid="h5-new-dialogue">
        <PlusOutlined /> {t("history.new")}
      </button>
      {failed ? (
        <p className="h5-muted">{t("history.failed")}</p>
      ) : !list ? (
        <p className="h5-muted">{t("history.loading")}</p>
      ) : list.length === 0 ? (
        <p className="h5-muted">{t("history.empty")}</p>
      ) : (
        <ul className="h5-history">
          {list.map((d) => (
            <li key={d.id}>
              <button type="button" className={d.id === currentId ? "is-current" : undefined} onClick={() => onPick(d.id)}>
                <span>{d.title || t("history.untitled")}</span>
                <small>{when(d)}</small>
              </button>
            </li>
          ))}
        </ul>
      )}
    </H5Sheet>
  );
}
