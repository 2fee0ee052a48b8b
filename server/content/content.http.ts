// The sensitive-word list, for platform administrators (a session with the role, or ADMIN_API_TOKEN).
// GET/PUT /v1/admin/sensitive_words read and replace the administrators' own words; the rest work on
// the whole list, the default words included.
import express from "express";
import { AppError } from "../errors/app-error";
import { handle } from "../http/envelope-response";
import { isPlatformAdmin } from "../http/request-context";
import { readMultipart } from "../uploads/multipart";
import { getSensitiveWords, setSensitiveWords } from "./content.service";
import { WORD_FILE_MAX_BYTES, ZListSensitiveWordsInput, ZSensitiveWordsInput, ZSetSensitiveWordsInput } from "./content.schema";
import { addSensitiveWords, importSensitiveWords, listSensitiveWords, removeSensitiveWords, restoreSensitiveWords } from "./sensitive-words.service";

const BASE = "/v1/admin/sensitive_words";

async function requireAdmin(req: express.Request) {
  if (!(await isPlatformAdmin(req))) throw new AppError("no_permission");
}

export function createContentRouter() {
  const router = express.Router();
  router.get(
    BASE,
    handle(async (req) => (await requireAdmin(req), { words: await getSensitiveWords() })),
  );
  router.put(
    BASE,
    handle(async (req) => (await requireAdmin(req), setSensitiveWords(ZSetSensitiveWordsInput.parse(req.body)))),
  );
  router.get(
    `${BASE}/list`,
    handle(async (req) => (await requireAdmin(req), listSensitiveWords(ZListSensitiveWordsInput.parse(req.query)))),
  );
  router.post(
    `${BASE}/add`,
    handle(async (req) => (await requireAdmin(req), addSensitiveWords(ZSensitiveWordsInput.parse(req.body).words))),
  );
  router.post(
    `${BASE}/remove`,
    handle(async (req) => (await requireAdmin(req), removeSensitiveWords(ZSensitiveWordsInput.parse(req.body).words))),
  );
  router.post(
    `${BASE}/restore`,
    handle(async (req) => (await requireAdmin(req), restoreSensitiveWords(ZSensitiveWordsInput.parse(req.body).words))),
  );
  router.post(
    `${BASE}/import`,
    handle(async (req) => {
      await requireAdmin(req);
      const { files } = await readMultipart(req, { files: { file: WORD_FILE_MAX_BYTES }, maxFields: 5 });
      return importSensitiveWords(files.file?.bytes);
    }),
  );
  return router;
}
