import { useIsMobi } from "../../components/app-link";
import { ErrorScreen } from "../../components/shell/error-screen";

// A real 404: the status reaches the browser and crawlers, not just the words.
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return <ErrorScreen status={404} />;
}

export function ErrorBoundary() {
  const mobi = useIsMobi();
  return (
    <div className={mobi ? "phone" : undefined}>
      <ErrorScreen status={404} />
    </div>
  );
}
