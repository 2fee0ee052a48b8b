// The chat's input bar: text always; voice and image buttons only where the app's input modes
// include them. Enter sends (Shift+Enter breaks the line); a picked image is uploaded at once and
// its URL goes with the next message.
import { AudioOutlined, CloseOutlined, LoadingOutlined, PictureOutlined, SendOutlined, StopOutlined } from "@ant-design/icons";
import { useCallback, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { refusalText, uploadChatImage } from "./h5-api";
import { useVoiceRecorder } from "./use-voice";

const MAX_IMAGES = 3;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

type TProps = {
  appId: string;
  inputModes: string[];
  streaming: boolean;
  /** `false`: not sent (the chat showed why), so the text and pictures stay in the input. */
  onSend: (content: string, images: string[]) => boolean | void;
  onStop: () => void;
  onError: (message: string) => void;
};

export function H5Input({ appId, inputModes, streaming, onSend, onStop, onError }: TProps) {
  const { t } = useTranslation("h5");
  const [text, setText] = useState("");
  const [images, setImages] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const appendText = useCallback((spoken: string) => setText((v) => (v ? `${v} ${spoken}` : spoken)), []);
  const voice = useVoiceRecorder(appId, appendText, onError);
  const withVoice = inputModes.includes("voice") && voice.supported;
  const withImage = inputModes.includes("image");

  const submit = () => {
    const content = text.trim();
    if (!content || streaming || uploading) return;
    if (onSend(content, images) === false) return;
    setText("");
    setImages([]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const pickImage = async (file: File | undefined) => {
    if (!file) return;
    if (!["image/jpeg", "image/png"].includes(file.type)) return onError(t("input.image_type"));
    if (file.size > MAX_IMAGE_BYTES) return onError(t("input.image_size"));
    setUploading(true);
    try {
      const { url } = await uploadChatImage(appId, file);
      setImages((list) => [...list, url].slice(0, MAX_IMAGES));
    } catch (err) {
      onError(refusalText(err, t("input.image_failed")));
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  return (
    <div className="h5-input" data-testid="h5-input">
      {images.length > 0 && (
        <ul className="h5-input__images">
          {images.map((url) => (
            <li key={url}>
              <img src={url} alt="" />
              <button type="button" aria-label={t("input.remove_image")} onClick={() => setImages((l) => l.filter((u) => u !== url))}>
                <CloseOutlined />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="h5-input__row">
        {withVoice && (
          <button
            type="button"
            className={`h5-icon-btn h5-icon-btn--round${voice.state === "recording" ? " is-recording" : ""}`}
            aria-label={voice.state === "recording" ? t("input.voice_stop") : t("input.voice")}
            onClick={() => (voice.state === "recording" ? voice.stop() : void voice.start())}
            disabled={voice.state === "transcribing"}
            data-testid="h5-voice"
          >
            {voice.state === "transcribing" ? <LoadingOutlined /> : <AudioOutlined />}
          </button>
        )}
        <textarea
          className="h5-input__text"
          rows={1}
          value={text}
          maxLength={2000}
          placeholder={voice.state === "recording" ? t("input.recording") : t("input.placeholder")}
          aria-label={t("input.placeholder")}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
          data-testid="h5-text"
        />
        {withImage && (
          <>
            <button
              type="button"
              className="h5-icon-btn h5-icon-btn--round"
              aria-label={t("input.image")}
              disabled={uploading || images.length >= MAX_IMAGES}
              onClick={() => fileInput.current?.click()}
              data-testid="h5-image"
            >
              {uploading ? <LoadingOutlined /> : <PictureOutlined />}
            </button>
            <input ref={fileInput} type="file" accept="image/jpeg,image/png" hidden onChange={(e) => void pickImage(e.target.files?.[0])} />
          </>
        )}
        {streaming ? (
          <button type="button" className="h5-send" aria-label={t("input.stop")} onClick={onStop} data-testid="h5-stop">
            <StopOutlined />
          </button>
        ) : (
          <button type="button" className="h5-send" aria-label={t("input.send")} disabled={!text.trim() || uploading} onClick={submit} data-testid="h5-send">
            <SendOutlined />
          </button>
        )}
      </div>
    </div>
  );
}
