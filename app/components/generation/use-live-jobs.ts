// A list of jobs kept current while the page is open: every unfinished one is followed until it
// finishes. The screens that start jobs also say, when the page goes away, that the jobs still
// running go on with nobody watching (the gallery only watches jobs started elsewhere).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { followJobs, isRunning, sendBackgroundBeacon, type TMediaJob } from "./generation-client";

type TStream = { ids: string[]; stop: () => void };

/**
 * Opens a stream for jobs no open stream follows, and closes the streams none of whose jobs are
 * still listed as running. A stream is never reopened to add a job: the server takes a closed
 * stream as "nobody watches these any more" and moves its running jobs to the background.
 */
function useJobStreams(runningKey: string, onJob: (job: TMediaJob) => void, onGone: (id: string) => void) {
  const streams = useRef(new Map<string, TStream>());
  useEffect(() => {
    const running = new Set(runningKey ? runningKey.split(",") : []);
    for (const [key, stream] of streams.current)
      if (!stream.ids.some((id) => running.has(id))) {
        stream.stop();
        streams.current.delete(key);
      }
    const followed = new Set([...streams.current.values()].flatMap((s) => s.ids));
    const fresh = [...running].filter((id) => !followed.has(id));
    if (fresh.length) streams.current.set(fresh.join(","), { ids: fresh, stop: followJobs(fresh, onJob, onGone) });
  }, [runningKey, onJob, onGone]);
  useEffect(() => {
    const open = streams.current;
    return () => {
      for (const stream of open.values()) stream.stop();
      open.clear();
    };
  }, []);
}

export function useLiveJobs(opts: { backgroundOnLeave?: boolean } = {}) {
  const [jobs, setJobs] = useState<TMediaJob[]>([]);
  const latest = useRef(jobs);
  latest.current = jobs;

  /** Adds jobs or replaces the ones with the same id, keeping the newest first. */
  const put = useCallback((...next: TMediaJob[]) => {
    setJobs((old) => {
      const byId = new Map(next.map((j) => [j.id, j]));
      const kept = old.map((j) => byId.get(j.id) ?? j);
      const added = next.filter((j) => !old.some((o) => o.id === j.id));
      return [...added, ...kept].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    });
  }, []);
  const replaceAll = useCallback((next: TMediaJob[]) => setJobs(next), []);
  const drop = useCallback((id: string) => setJobs((old) => old.filter((j) => j.id !== id)), []);

  const runningKey = useMemo(
    () =>
      jobs
        .filter(isRunning)
        .map((j) => j.id)
        .sort()
        .join(","),
    [jobs],
  );
  useJobStreams(runningKey, put, drop);

  const backgroundOnLeave = Boolean(opts.backgroundOnLeave);
  useEffect(() => {
    if (!backgroundOnLeave) return;
    const leave = () => sendBackgroundBeacon(latest.current.filter((j) => j.state === "queued" || j.state === "generating").map((j) => j.id));
    // pagehide: the tab closes or the browser goes elsewhere; unmount: a link inside the console.
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, [backgroundOnLeave]);

  return { jobs, put, replaceAll, drop };
}
