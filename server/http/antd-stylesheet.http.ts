// GET /_antd/<hash>.css: antd's styles for every page (app/lib/antd-stylesheet.server.tsx). Built
// by the render bundle, so it is asked for through the build's entry module; the same code gives
// the same hash on every instance. Immutable: a new deploy changes the hash and so the URL.
import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import type { TAntdStylesheet } from "../../common/antd-stylesheet";

export function serveAntdStylesheet(getBuild: () => Promise<ServerBuild> | ServerBuild | undefined): RequestHandler {
  return async (req, res, next) => {
    try {
      const build = await getBuild();
      const sheet = (build?.entry.module as { antdStylesheet?: () => TAntdStylesheet } | undefined)?.antdStylesheet?.();
      if (!sheet || req.params.file !== `${sheet.hash}.css`) {
        res.status(404).type("text/plain").send("not found");
        return;
      }
      res.set({ "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable", Vary: "Accept-Encoding" });
      if (req.acceptsEncodings("gzip") === "gzip") res.set("Content-Encoding", "gzip").send(sheet.gzipped);
      else res.send(sheet.css);
    } catch (err) {
      next(err);
    }
  };
}
