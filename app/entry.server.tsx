import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { StyleProvider } from "@ant-design/cssinjs";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createServerI18n, getRequestLanguage } from "./i18n/i18n.server";
import { antdHeadMarkup, createAntdRenderCache, getAntdStylesheet } from "./lib/antd-stylesheet.server";

/** For the web process's /_antd/<hash>.css (server/http/antd-stylesheet.http.ts). */
export const antdStylesheet = getAntdStylesheet;

const ABORT_DELAY = 10_000;

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const i18n = await createServerI18n(getRequestLanguage(request));
  // antd's styles come from one cacheable stylesheet linked in <head> (lib/antd-stylesheet.server.tsx),
  // so pages never flash unstyled and do not carry the styles themselves.
  const antd = createAntdRenderCache();
  const html = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <StyleProvider cache={antd.cache} hashPriority="high">
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
        </StyleProvider>
      </I18nextProvider>,
      {
        onAllReady() {
          const sink = new PassThrough();
          sink.on("data", (c: Buffer) => chunks.push(c));
          sink.on("end", () => {
            clearTimeout(timer);
            resolve(Buffer.concat(chunks).toString("utf8"));
          });
          pipe(sink);
        },
        onShellError: reject,
        onError(error) {
          if (!request.signal.aborted) console.error(error);
        },
      },
    );
    timer = setTimeout(abort, ABORT_DELAY);
  });
  const styles = antd.used() ? antdHeadMarkup() : "";
  const body = `<!DOCTYPE html>${html.replace("</head>", `${styles}</head>`)}`;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const stream = new PassThrough();
  stream.end(body);
  return new Response(createReadableStreamFromReadable(stream), { headers: responseHeaders, status: responseStatusCode });
}
