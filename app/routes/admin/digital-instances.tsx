// /admin/digital_instances: platform administrators see the running (and stopped) instances of
// digital-human apps with their hourly billing, set the hourly price new instances start at, and
// delete an instance, which stops it and clears its files.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Segmented } from "antd";
import { useTranslation } from "react-i18next";
import { HourPriceCard } from "../../components/admin/digital-instances/hour-price-card";
import { InstanceList } from "../../components/admin/digital-instances/instance-list";
import { requirePageRole } from "../../lib/auth.server";
import { getHourPriceView, listInstancesForAdmin } from "../../../server/digital/instances.service";
import { INSTANCE_FILTERS, ZInstanceListInput, type TInstanceFilter } from "../../../server/digital/instances.schema";
import "../../components/admin/digital-instances/digital-instances.css";

export const handle = { i18n: ["instances"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageRole(request, "platform_admin");
  const parsed = ZInstanceListInput.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const input = parsed.success ? parsed.data : ZInstanceListInput.parse({});
  const [page, price] = await Promise.all([listInstancesForAdmin(input), getHourPriceView()]);
  return { filter: input.state, page, price };
}

export default function AdminDigitalInstances() {
  const { t } = useTranslation("instances");
  const { filter, page, price } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const refresh = () => revalidator.revalidate();
  // A change of filter starts again on the first page.
  const setQuery = (changes: Record<string, string>) => setParams({ ...Object.fromEntries(params), page: "1", ...changes });

  return (
    <div className="console__page" data-testid="admin-digital-instances">
      <h1 className="console__title">{t("admin.title")}</h1>
      <p className="console__hint">{t("admin.lead")}</p>
      <HourPriceCard price={price} onChanged={refresh} />
      <div className="di-toolbar">
        <Segmented<TInstanceFilter>
          value={filter}
          onChange={(state) => setQuery({ state })}
          options={INSTANCE_FILTERS.map((s) => ({ value: s, label: t(`admin.filters.${s}`) }))}
          data-testid="instances-filter"
        />
        <span className="di-muted" data-testid="instances-total">
          {t("admin.total", { count: page.total })}
        </span>
      </div>
      <InstanceList page={page} onPage={(p) => setQuery({ page: String(p), state: filter })} onChanged={refresh} />
    </div>
  );
}
