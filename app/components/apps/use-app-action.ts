// Runs an app action from a list (with a confirmation where it cannot be undone lightly) and
// reloads the page's data afterwards.
import { useRevalidator } from "@remix-run/react";
import { App, type ButtonProps } from "antd";
import { useTranslation } from "react-i18next";
import { useMutation } from "../../lib/use-mutation";

export function useAppAction() {
  const { t } = useTranslation("apps");
  const { message, modal } = App.useApp();
  const revalidator = useRevalidator();

  const { run, busyKey: busyId } = useMutation(async (_id: string, action: () => Promise<unknown>, done: string) => {
    await action();
    message.success(done);
    revalidator.revalidate();
  });

  const confirm = (id: string, title: string, action: () => Promise<unknown>, done: string, danger = false) =>
    modal.confirm({ title, okButtonProps: { danger, "data-testid": "app-confirm-ok" } as ButtonProps, onOk: () => run(id, action, done) });

  return { busyId, run, confirm, t };
}
