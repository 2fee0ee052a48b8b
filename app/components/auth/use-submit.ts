import { useState } from "react";
import { apiRequest, ApiError } from "../../lib/api-client";

/** Posts a form to the API and reports the refusal's message, localized by the server. */
export function useApiSubmit<T = unknown>(path: string) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (body: Record<string, unknown>): Promise<T | null> => {
    setPending(true);
    setError(null);
    try {
      return await apiRequest<T>(path, { body });
    } catch (err) {
      setError(err instanceof ApiError ? err.description : String(err));
      return null;
    } finally {
      setPending(false);
    }
  };
  return { submit, pending, error, setError };
}
