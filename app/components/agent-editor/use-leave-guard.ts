// "Unsaved changes, confirm leaving": in-app navigation asks first (Remix's blocker), and
// closing or reloading the tab gets the browser's own warning (beforeunload).
import { useBlocker } from "@remix-run/react";
import { App, type ButtonProps } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

export function useLeaveGuard(dirty: boolean) {
  const { t } = useTranslation(["agents", "common"]);
  const { modal } = App.useApp();
  // Read through a ref: a page that saves and then moves on in one go releases the guard before
  // React has rendered the clean state. Query-only changes (a new agent getting its id) stay.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);
  const current = useRef(blocker);
  current.current = blocker;

  // One question per blocked navigation, answered through whichever blocker is current then.
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    modal.confirm({
      title: t("shell.confirm_leave", { ns: "common" }),
      okText: t("editor.leave"),
      cancelText: t("editor.stay"),
      okButtonProps: { danger: true, "data-testid": "leave-confirm" } as ButtonProps,
      cancelButtonProps: { "data-testid": "leave-cancel" } as ButtonProps,
      onOk: () => current.current.proceed?.(),
      onCancel: () => current.current.reset?.(),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [blocker.state]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  /** Lets the next navigation through (the changes were just saved). */
  return { release: () => void (dirtyRef.current = false) };
}
