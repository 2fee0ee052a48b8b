// /admin/sensitive_words: platform administrators list and search the sensitive-word list (the
// shipped default words and their own), add words, import a .txt file, remove their own words and
// switch default words off or back on.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Card, Input, Segmented, Space } from "antd";
import { useTranslation } from "react-i18next";
import { WordEntryCard } from "../../components/content/word-entry-card";
import { WordTable } from "../../components/content/word-table";
import { requirePageRole } from "../../lib/auth.server";
import { WORD_STATUSES, ZListSensitiveWordsInput, type TWordStatus } from "../../../server/content/content.schema";
import { listSensitiveWords } from "../../../server/content/sensitive-words.service";

export const handle = { i18n: ["content"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageRole(request, "platform_admin");
  const query = ZListSensitiveWordsInput.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  return listSensitiveWords(query.success ? query.data : ZListSensitiveWordsInput.parse({}));
}

export default function AdminSensitiveWords() {
  const { t } = useTranslation("content");
  const page = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const status = (params.get("status") ?? "all") as TWordStatus;

  // A change of filter or search starts again on the first page.
  const setQuery = (changes: Record<string, string>) => {
    const next = { ...Object.fromEntries(params), page: "1", ...changes };
    setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== "")));
  };

  return (
    <div className="console__page" data-testid="admin-sensitive-words">
      <h1 className="console__title">{t("admin.title")}</h1>
      <p className="console__hint">{t("admin.lead")}</p>
      <p className="console__hint" data-testid="words-counts">
        {t("admin.counts", page.counts)}
      </p>
      <WordEntryCard onChanged={() => revalidator.revalidate()} />
      <Card>
        <Space wrap style={{ marginBottom: 12 }}>
          <Segmented<TWordStatus>
            value={status}
            onChange={(s) => setQuery({ status: s })}
            options={WORD_STATUSES.map((s) => ({ value: s, label: t(`admin.filters.${s}`) }))}
            data-testid="words-status"
          />
          <Input.Search
            allowClear
            defaultValue={params.get("q") ?? ""}
            placeholder={t("admin.search")}
            onSearch={(q) => setQuery({ q: q.trim() })}
            style={{ width: 260 }}
            data-testid="words-search"
          />
        </Space>
        <WordTable page={page} onChanged={() => revalidator.revalidate()} onPage={(p, size) => setQuery({ page: String(p), page_size: String(size) })} />
      </Card>
    </div>
  );
}
