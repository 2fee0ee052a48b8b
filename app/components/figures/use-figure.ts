// One figure of mine, loaded by id and asked about again every 1.5 seconds while the worker has its
// files in hand (checking, preparing), until it is settled.
import { useCallback, useEffect, useState } from "react";
import { errorText } from "../../lib/api-client";
import { figuresApi, isWorking, type TFigureView } from "./figures-client";

export const FIGURE_POLL_MS = 1500;

export function useFigure(id: string | null) {
  const [figure, setFigure] = useState<TFigureView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(Boolean(id));

  const load = useCallback(async () => {
    if (!id) return null;
    try {
      const next = await figuresApi.get(id);
      setFigure(next);
      setError(null);
      return next;
    } catch (err) {
      setError(errorText(err));
      return null;
    } finally {
      setLoading(false);
    }
  }, [id]);

  useEffect(() => {
    setFigure(null);
    setLoading(Boolean(id));
    void load();
  }, [id, load]);

  const working = figure ? isWorking(figure) : false;
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => void load(), FIGURE_POLL_MS);
    return () => clearInterval(timer);
  }, [working, load]);

  return { figure, setFigure, error, loading, reload: load };
}
