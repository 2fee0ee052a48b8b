import { apiRequest } from "../../lib/api-client";
import { useMutation } from "../../lib/use-mutation";

/** Posts a form to the API and reports the refusal's message, localized by the server. */
export function useApiSubmit<T = unknown>(path: string) {
  // Wrapped, so a refusal (null) stays apart from a success whose data is empty.
  const {
    run,
    busy: pending,
    error,
    setError,
  } = useMutation(async (body: Record<string, unknown>) => ({ data: await apiRequest<T>(path, { body }) }), { report: "inline" });
  const submit = async (body: Record<string, unknown>): Promise<T | null> => {
    const done = await run(body);
    return done ? done.data : null;
  };
  return { submit, pending, error, setError };
}
