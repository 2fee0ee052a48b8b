// Runs an app action from a list (with a confirmation where it cannot be undone lightly) and
// reloads the page's data afterwards.
import { useRevalidator } from "@remix-run/react";
import { App, type ButtonProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";

export function useAppAction() {
  const { t } = useTranslation("apps");
  const { message, modal } = App.useApp();
  const revalidator = useRevalidator();
  const [busyId, setBusyId] = useState<string | null>(null);

  const run = async (id: string, action: () => Promise<unknown>, done: string) => {
    setBusyId(id);
    try {
      await action();
      message.success(done);
      revalidator.revalidate();
    } catch (err) {
      message.error(err instanceof ApiError ? err.description : String(err));
    } finally {
      setBusyId(null);
    }
  };

  const confirm = (id: string, title: string, action: () => Promise<unknown>, done: string, danger = false) =>
    modal.confirm({ title, okButtonProps: { danger, "data-testid": "app-confirm-ok" } as ButtonProps, onOk: () => run(id, action, done) });

  return { busyId, run, confirm, t };
}
