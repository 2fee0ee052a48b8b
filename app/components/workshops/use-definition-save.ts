// The editor's save: the server's checks in the browser first (an issue shown on its field, or on
// its section when it concerns a whole list), then the save over the revision the editor loaded.
// A save refused because the draft was saved elsewhere meanwhile offers a reload, never overwrites.
// Also the nodes following their roles: a renamed or removed role is renamed or removed where
// the nodes name it.
import { App, type FormInstance } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import type { TDefinition } from "../../../server/workshops/workshops.schema";
import { checkDefinition, placeIssue, renameRoleInNodes, toFormPath, type TDefinitionValues, type TIssue } from "./definition-values";

/** The platform code of a save over a draft saved elsewhere meanwhile (workshop_edited_elsewhere). */
const EDITED_ELSEWHERE = 421901;

export type TSectionIssues = Partial<Record<"roles" | "nodes" | "limits", string[]>>;
type TForm = FormInstance<TDefinitionValues>;

export function useDefinitionSave(p: {
  form: TForm;
  workshopId: string;
  revision: number;
  kindOf: (agentId: string) => string | undefined;
  onSaved: () => void;
}) {
  const { t } = useTranslation("workshops");
  const { message, modal } = App.useApp();
  const [revision, setRevision] = useState(p.revision);
  const [sections, setSections] = useState<TSectionIssues>({});

  const showIssues = (issues: TIssue[], translated: boolean) => {
    const text = (m: string) => (translated ? m : t(m));
    const fields = new Map<string, { name: (string | number)[]; errors: string[] }>();
    const bySection: TSectionIssues = {};
    for (const issue of issues) {
      const place = placeIssue(issue.path);
      if ("section" in place) bySection[place.section] = [...(bySection[place.section] ?? []), text(issue.message)];
      else {
        const key = JSON.stringify(place.field);
        fields.set(key, { name: place.field, errors: [...(fields.get(key)?.errors ?? []), text(issue.message)] });
      }
    }
    p.form.setFields([...fields.values()] as Parameters<TForm["setFields"]>[0]);
    setSections(bySection);
    const first = [...fields.values()][0];
    if (first) p.form.scrollToField(first.name, { block: "center" });
    message.error(text(issues[0]?.message ?? "editor.fix_errors"));
  };

  const send = useMutation(
    async (definition: TDefinition) => {
      const saved = await callTrpc(() => trpc.workshops.saveDefinition.mutate({ id: p.workshopId, revision, definition }));
      setRevision(saved.revision);
      message.success(t("editor.saved"));
      p.onSaved();
      return true;
    },
    {
      onError: (err) => {
        if (err instanceof ApiError && err.status === EDITED_ELSEWHERE) {
          modal.warning({ title: err.description, okText: t("editor.reload"), onOk: () => window.location.reload() });
          return true;
        }
        const fields = fieldErrorsOf(err);
        if (fields.length)
          showIssues(
            fields.map((f) => ({ path: toFormPath(f.path), message: f.message })),
            true,
          );
        return fields.length > 0;
      },
    },
  );

  /** Checks and saves what the form holds; answers whether it was saved. */
  const save = async () => {
    const checked = checkDefinition(p.form.getFieldsValue(true) as TDefinitionValues, p.kindOf);
    if (!checked.ok) {
      showIssues(checked.issues, false);
      return false;
    }
    setSections({});
    return Boolean(await send.run(checked.definition));
  };

  return { save, saving: send.busy, revision, sections };
}

export function useRoleFollowing(form: TForm, initialNames: string[]) {
  // The role names as last typed, place by place: a name cleared to be retyped is still the one renamed.
  const names = useRef(initialNames);
  const followRoles = (roles: TDefinitionValues["roles"]) => {
    const now = roles.map((r) => r?.name?.trim() ?? "");
    let nodes = form.getFieldValue("nodes") as TDefinitionValues["nodes"];
    if (now.length === names.current.length)
      now.forEach((name, i) => {
        const before = names.current[i];
        if (name && before && name !== before) nodes = renameRoleInNodes(nodes, before, name);
      });
    if (nodes !== form.getFieldValue("nodes")) form.setFieldValue("nodes", nodes);
    names.current = now.length === names.current.length ? now.map((n, i) => n || names.current[i]) : now;
  };
  const removeRole = (index: number) => {
    const name = (form.getFieldValue(["roles", index, "name"]) as string | undefined)?.trim();
    if (name) form.setFieldValue("nodes", renameRoleInNodes(form.getFieldValue("nodes"), name, ""));
    names.current = names.current.filter((_, i) => i !== index);
  };
  return { followRoles, removeRole };
}
