// A generation job's progress inside the reply it will become: what is being made, its state in
// words and a bar (a moving one while the percentage is not known). Plain elements: the phone chat
// shows it too. Each chat names its own translations (`ns` and the `generation` keys' prefix).
import { PictureOutlined, VideoCameraOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { describeGeneration, type TGeneration } from "./chat-media";

export function GenerationProgress({ generation, ns, keyPrefix }: { generation: TGeneration; ns: "chat" | "h5"; keyPrefix: string }) {
  const { t } = useTranslation(ns, { keyPrefix });
  const { key, progress } = describeGeneration(generation);
  const label = t(key, { progress });
  // A percentage only once the provider has told one; before that, and in the background, the bar moves.
  const filled = generation.state === "done" ? 100 : generation.state === "generating" && progress > 0 ? progress : null;
  return (
    <div className="chat-gen" role="status" data-testid="generation-progress" data-state={generation.state} data-kind={generation.kind}>
      <div className="chat-gen__head">
        {generation.kind === "video" ? <VideoCameraOutlined /> : <PictureOutlined />}
        <span className="chat-gen__title">{t(generation.kind)}</span>
        <span className="chat-gen__state" data-testid="generation-state">
          {label}
        </span>
      </div>
      <div className="chat-gen__track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={filled ?? undefined}>
        <div className={`chat-gen__fill${filled === null ? " is-busy" : ""}`} style={filled === null ? undefined : { width: `${filled}%` }} />
      </div>
    </div>
  );
}
