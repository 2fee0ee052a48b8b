// The editor's form as folding sections. Every section stays rendered while folded, so its fields
// keep their values and checks; a section whose fields hold an error is marked (and unfolded by
// the editor).
import { Alert, Badge, Collapse } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TAgentDetail } from "../../../server/agents/agents.schema";
import { AppLink } from "../app-link";
import { AbilitiesSection } from "./abilities-section";
import type { TEditorModel } from "./agent-rules";
import type { TSectionKey } from "./agent-sections";
import { BasicsSection } from "./basics-section";
import { ModelSection } from "./model-section";
import { PricingSection } from "./pricing-section";
import { PromptSection } from "./prompt-section";
import { TrainingSetsSection } from "./training-sets-section";
import { VariablesSection } from "./variables-section";
import { VersionHistory } from "./version-history";

type TProps = {
  open: TSectionKey[];
  onOpenChange: (open: TSectionKey[]) => void;
  withErrors: TSectionKey[];
  models: TEditorModel[];
  plugins: string[];
  detail: TAgentDetail | null;
};

export function EditorSections({ open, onOpenChange, withErrors, models, plugins, detail }: TProps) {
  const { t } = useTranslation("agents");
  const { t: tt } = useTranslation("train");
  const bodies: Record<TSectionKey, { title: string; body: ReactNode; extra?: ReactNode }> = {
    basics: { title: t("sections.basics"), body: <BasicsSection /> },
    prompt: { title: t("sections.prompt"), body: <PromptSection /> },
    model: { title: t("sections.model"), body: <ModelSection models={models} /> },
    variables: { title: t("sections.variables"), body: <VariablesSection /> },
    training_sets: {
      title: tt("picker.title"),
      body: <TrainingSetsSection />,
      // A link in the header must not fold the section it sits on.
      extra: (
        <span onClick={(e) => e.stopPropagation()}>
          <AppLink to="/train">{tt("picker.manage")}</AppLink>
        </span>
      ),
    },
    abilities: { title: t("sections.abilities"), body: <AbilitiesSection models={models} plugins={plugins} /> },
    pricing: { title: t("sections.pricing"), body: <PricingSection /> },
    versions: {
      title: detail ? t("sections.versions_count", { count: detail.versions.length }) : t("sections.versions"),
      body: detail ? <VersionHistory versions={detail.versions} currentId={detail.config_version_id} /> : <Alert type="info" title={t("editor.new_hint")} />,
    },
  };
  const items = (Object.keys(bodies) as TSectionKey[]).map((key) => ({
    key,
    forceRender: true,
    className: "agent-editor__panel",
    label: (
      <span className="agent-editor__panel-label" data-testid={`section-head-${key}`} data-error={withErrors.includes(key) ? "1" : "0"}>
        {bodies[key].title}
        {withErrors.includes(key) && <Badge status="error" aria-label={t("editor.section_has_errors")} />}
      </span>
    ),
    extra: bodies[key].extra,
    children: bodies[key].body,
  }));
  return (
    <Collapse
      className="agent-editor__sections"
      activeKey={open}
      onChange={(keys) => onOpenChange((Array.isArray(keys) ? keys : [keys]) as TSectionKey[])}
      items={items}
      data-testid="editor-sections"
    />
  );
}
