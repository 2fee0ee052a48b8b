import { useIsMobi } from "../../components/app-link";
import { AntdShell } from "../../components/shell/antd-shell";
import { ErrorScreen } from "../../components/shell/error-screen";

// A real 404: the status reaches the browser and crawlers, not just the words.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

// Outside every layout, so it brings antd's theme itself.
export default function NotFound() {
  return (
    <AntdShell>
      <ErrorScreen status={404} />
    </AntdShell>
  );
}

export function ErrorBoundary() {
  const mobi = useIsMobi();
  return (
    <AntdShell>
      <div className={mobi ? "phone" : undefined}>
        <ErrorScreen status={404} />
      </div>
    </AntdShell>
  );
}
