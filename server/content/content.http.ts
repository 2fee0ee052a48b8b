import express from "express";
import { AppError } from "../errors/app-error";
import { handle } from "../http/envelope-response";
import { isPlatformAdmin } from "../http/request-context";
import { getSensitiveWords, setSensitiveWords } from "./content.service";

export function createContentRouter() {
  const router = express.Router();
  const admin = async (req: express.Request) => {
    if (!(await isPlatformAdmin(req))) throw new AppError("no_permission");
  };
  router.get("/v1/admin/sensitive_words", handle(async (req) => (await admin(req), { words: await getSensitiveWords() })));
  router.put("/v1/admin/sensitive_words", handle(async (req) => (await admin(req), setSensitiveWords(req.body))));
  return router;
}
