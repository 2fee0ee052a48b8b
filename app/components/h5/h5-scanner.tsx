// Scanning an app's QR code with the camera where the browser has BarcodeDetector (Chrome on
// Android, recent Safari), and pasting a link everywhere. Only links of this site are followed:
// what was read becomes /mobi/scan?target=<path>, which checks it again (readScanTarget).
import { CameraOutlined, LinkOutlined, StopOutlined } from "@ant-design/icons";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

type TDetector = { detect: (source: HTMLVideoElement) => Promise<{ rawValue: string }[]> };
type TDetectorClass = { new (opts: { formats: string[] }): TDetector; getSupportedFormats?: () => Promise<string[]> };

/** A path of this site from a scanned or pasted text: an absolute link of this origin, or a path. */
export function toSitePath(text: string, origin: string): string | null {
  const value = text.trim();
  if (value.startsWith("/") && !value.startsWith("//")) return value;
  try {
    const url = new URL(value);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

export function H5Scanner({ onRead }: { onRead: (text: string) => void }) {
  const { t } = useTranslation("h5");
  const video = useRef<HTMLVideoElement>(null);
  const [camera, setCamera] = useState<"unsupported" | "idle" | "on" | "denied">("idle");
  const [link, setLink] = useState("");
  const stream = useRef<MediaStream | null>(null);

  useEffect(() => {
    const Detector = (window as unknown as { BarcodeDetector?: TDetectorClass }).BarcodeDetector;
    if (!Detector || !navigator.mediaDevices?.getUserMedia) setCamera("unsupported");
  }, []);

  const stop = useCallback(() => {
    stream.current?.getTracks().forEach((tr) => tr.stop());
    stream.current = null;
    setCamera((c) => (c === "on" ? "idle" : c));
  }, []);
  useEffect(() => stop, [stop]);

  const start = async () => {
    const Detector = (window as unknown as { BarcodeDetector?: TDetectorClass }).BarcodeDetector;
    if (!Detector) return setCamera("unsupported");
    try {
      const media = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
      stream.current = media;
      setCamera("on");
      const el = video.current!;
      el.srcObject = media;
      await el.play();
      const detector = new Detector({ formats: ["qr_code"] });
      const tick = async () => {
        if (!stream.current) return;
        try {
          const codes = await detector.detect(el);
          if (codes[0]?.rawValue) {
            stop();
            return onRead(codes[0].rawValue);
          }
        } catch {
          // A frame that is not ready yet: try the next one.
        }
        setTimeout(() => void tick(), 250);
      };
      void tick();
    } catch {
      setCamera("denied");
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (link.trim()) onRead(link.trim());
  };

  return (
    <div className="h5-scan" data-testid="h5-scanner">
      <div className={`h5-scan__view${camera === "on" ? " is-on" : ""}`}>
        <video ref={video} playsInline muted aria-label={t("scan.camera")} />
        {camera !== "on" && (
          <div className="h5-scan__placeholder">
            <CameraOutlined />
            <p>{camera === "unsupported" ? t("scan.unsupported") : camera === "denied" ? t("scan.denied") : t("scan.lead")}</p>
          </div>
        )}
        <span className="h5-scan__frame" aria-hidden />
      </div>
      {camera === "on" ? (
        <button type="button" className="h5-btn h5-btn--block" onClick={stop}>
          <StopOutlined /> {t("scan.stop")}
        </button>
      ) : camera !== "unsupported" ? (
        <button type="button" className="h5-btn h5-btn--primary h5-btn--block" onClick={() => void start()} data-testid="h5-scan-start">
          <CameraOutlined /> {t("scan.start")}
        </button>
      ) : null}
      <form className="h5-scan__paste" onSubmit={submit}>
        <label htmlFor="h5-scan-link">{t("scan.paste_label")}</label>
        <div className="h5-scan__paste-row">
          <input
            id="h5-scan-link"
            type="url"
            inputMode="url"
            value={link}
            placeholder={t("scan.paste_placeholder")}
            onChange={(e) => setLink(e.target.value)}
            data-testid="h5-scan-link"
          />
          <button type="submit" className="h5-btn h5-btn--primary" disabled={!link.trim()} data-testid="h5-scan-open">
            <LinkOutlined /> {t("scan.open")}
          </button>
        </div>
      </form>
    </div>
  );
}
