// The app form's sections after the basics: the H5 chat page, type settings (a bot's channel, a
// digital human's scene, a workshop app's workshop), access and money, and the input-content function.
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Link } from "@remix-run/react";
import { Button, Card, Checkbox, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Switch } from "antd";
import { useTranslation } from "react-i18next";
import type { TAppType } from "../../../../server/apps/apps.schema";
import { ImageField } from "./image-field";
import { SpeakerField } from "./speaker-field";
import { AppSceneSummary } from "../../digital-editor/app-scene-summary";
import { WORKSHOP_LIST_PATH, newWorkshopPath, useWorkshopHref } from "../../workshops/workshop-links";
import type { TWorkshopOption } from "./app-form";

const tagsSelect = (testId: string) => <Select mode="tags" open={false} suffixIcon={null} data-testid={testId} />;

export function ChatSection() {
  const { t } = useTranslation("apps");
  return (
    <Card title={t("form.sections.chat")} className="app-form__card">
      <Form.Item name="style" label={t("form.style")}>
        <Radio.Group
          optionType="button"
          options={[
            { value: "conversation", label: t("style.conversation") },
            { value: "qa", label: t("style.qa") },
          ]}
          data-testid="app-style"
        />
      </Form.Item>
      <Form.Item name="welcome_messages" label={t("form.welcome_messages")} extra={t("form.list_hint")}>
        {tagsSelect("app-welcome")}
      </Form.Item>
      <Form.Item name="recommended_questions" label={t("form.recommended_questions")} extra={t("form.list_hint")}>
        {tagsSelect("app-questions")}
      </Form.Item>
      <Form.Item label={t("form.menu_items")}>
        <Form.List name="menu_items">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Row key={field.key} gutter={8} align="top" data-testid="app-menu-row">
                  <Col xs={24} md={5}>
                    <Form.Item name={[field.name, "title"]} label={t("form.menu_title")}>
                      <Input maxLength={12} data-testid="app-menu-title" />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={5}>
                    <Form.Item name={[field.name, "reply_type"]} label={t("form.menu_reply_type")}>
                      <Select options={["text", "link", "picture_text"].map((v) => ({ value: v, label: t(`menu_reply.${v}`) }))} data-testid="app-menu-type" />
                    </Form.Item>
                  </Col>
                  <Col xs={22} md={12}>
                    <Form.Item name={[field.name, "content"]} label={t("form.menu_content")}>
                      <Input data-testid="app-menu-content" />
                    </Form.Item>
                  </Col>
                  <Col xs={2} md={2}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(field.name)}
                      aria-label={t("form.remove")}
                      className="app-form__remove"
                    />
                  </Col>
                </Row>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ title: "", reply_type: "text", content: "" })}
                disabled={fields.length >= 10}
                data-testid="app-menu-add"
              >
                {t("form.menu_add")}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="input_modes" label={t("form.input_modes")} required>
            <Checkbox.Group options={["text", "voice", "image"].map((v) => ({ value: v, label: t(`modes.${v}`) }))} data-testid="app-input-modes" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="output_modes" label={t("form.output_modes")}>
            <Checkbox.Group options={["text", "voice", "image", "video"].map((v) => ({ value: v, label: t(`modes.${v}`) }))} data-testid="app-output-modes" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={6}>
          <Form.Item name="auto_play" label={t("form.auto_play")} valuePropName="checked">
            <Switch data-testid="app-auto-play" />
          </Form.Item>
        </Col>
        <Col xs={24} md={18}>
          <Form.Item name="speaker" label={t("form.speaker")} extra={t("form.speaker_hint")}>
            <SpeakerField />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="background_url" label={t("form.background")}>
        <ImageField hint={t("form.background_hint")} testId="app-background" />
      </Form.Item>
    </Card>
  );
}

/**
 * A workshop app publishes one of the developer's workshops, as it stands when the app is saved;
 * later edits reach the app when it is synced in the workshop's editor.
 */
function WorkshopPicker({ workshops }: { workshops: TWorkshopOption[] }) {
  const { t } = useTranslation("apps");
  const href = useWorkshopHref();
  const options = workshops.map((w) => {
    const ready = w.roleCount > 0 && w.nodeCount > 0;
    return {
      value: w.id,
      disabled: !ready,
      label: `${w.name} · ${ready ? t("form.workshop_counts", { roles: w.roleCount, nodes: w.nodeCount }) : t("form.workshop_incomplete")}`,
    };
  });
  return (
    <>
      <Form.Item name={["settings", "workshop_id"]} label={t("form.workshop")} required extra={t("form.workshop_hint")}>
        <Select options={options} placeholder={t("form.choose")} notFoundContent={t("form.workshop_none")} data-testid="app-workshop" />
      </Form.Item>
      <Space wrap>
        {!workshops.length && <span className="app-form__muted">{t("form.workshop_none")}</span>}
        <Link to={href(newWorkshopPath())}>{t("form.workshop_create")}</Link>
        <Link to={href(WORKSHOP_LIST_PATH)}>{t("form.workshop_list")}</Link>
      </Space>
    </>
  );
}

export function TypeSettingsSection({ type, workshops }: { type: TAppType; workshops: TWorkshopOption[] }) {
  const { t } = useTranslation("apps");
  if (type === "h5" || type === "api") return null;
  return (
    <Card title={t("form.sections.settings", { type: t(`type.${type}`) })} className="app-form__card" data-testid="app-type-settings">
      {type === "bot" && (
        <>
          <Form.Item name={["settings", "channel"]} label={t("form.bot_channel")}>
            <Select options={["wechat", "wecom", "dingtalk", "feishu"].map((p) => ({ value: p, label: t(`platform.${p}`) }))} data-testid="app-bot-channel" />
          </Form.Item>
          <Form.Item name={["settings", "greeting"]} label={t("form.bot_greeting")}>
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
        </>
      )}
      {type === "digital_human" && <AppSceneSummary />}
      {type === "workshop" && <WorkshopPicker workshops={workshops} />}
    </Card>
  );
}

export function AccessSection({ h5Like }: { h5Like: boolean }) {
  const { t } = useTranslation("apps");
  return (
    <Card title={t("form.sections.access")} className="app-form__card">
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item name="is_public" label={t("form.is_public")} valuePropName="checked">
            <Switch data-testid="app-public" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="in_app_centre" label={t("form.in_app_centre")} valuePropName="checked">
            <Switch data-testid="app-in-centre" />
          </Form.Item>
        </Col>
        {h5Like && (
          <Col xs={24} md={8}>
            <Form.Item name="mode" label={t("form.mode")} extra={t("form.mode_hint")}>
              <Select
                options={[
                  { value: "general", label: t("mode.general") },
                  { value: "sub_account", label: t("mode.sub_account") },
                ]}
                data-testid="app-mode"
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Row gutter={16}>
        <Col xs={12} md={8}>
          <Form.Item name="free_per_day" label={t("form.free_per_day")}>
            <InputNumber min={0} precision={0} style={{ width: "100%" }} data-testid="app-free-per-day" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="trial_days" label={t("form.trial_days")}>
            <InputNumber min={0} precision={0} style={{ width: "100%" }} data-testid="app-trial-days" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="share_ratio" label={t("form.share_ratio")}>
            <InputNumber min={10} max={70} suffix="%" style={{ width: "100%" }} data-testid="app-share-ratio" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t("form.plans")} extra={t("form.plans_hint")}>
        <Form.List name="plans">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Row key={field.key} gutter={8} data-testid="app-plan-row">
                  <Col xs={12} md={5}>
                    <Form.Item name={[field.name, "kind"]} label={t("form.plan_kind")}>
                      <Select
                        options={[
                          { value: "days", label: t("plan_kind.days") },
                          { value: "count", label: t("plan_kind.count") },
                        ]}
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={12} md={5}>
                    <Form.Item name={[field.name, "quantity"]} label={t("form.plan_quantity")}>
                      <InputNumber min={1} precision={0} style={{ width: "100%" }} />
                    </Form.Item>
                  </Col>
                  <Col xs={12} md={6}>
                    <Form.Item name={[field.name, "price"]} label={t("form.plan_price")}>
                      <InputNumber min={0.1} step={0.1} style={{ width: "100%" }} suffix="Z" />
                    </Form.Item>
                  </Col>
                  <Col xs={10} md={6}>
                    <Form.Item name={[field.name, "daily_limit"]} label={t("form.plan_daily_limit")}>
                      <InputNumber min={1} precision={0} style={{ width: "100%" }} placeholder={t("form.unlimited")} />
                    </Form.Item>
                  </Col>
                  <Col xs={2}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(field.name)}
                      aria-label={t("form.remove")}
                      className="app-form__remove"
                    />
                  </Col>
                </Row>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ kind: "days", quantity: 30, price: 9.9, daily_limit: null })}
                disabled={fields.length >= 5}
                data-testid="app-plan-add"
              >
                {t("form.plan_add")}
              </Button>
            </>
          )}
        </Form.List>
      </Form.Item>
    </Card>
  );
}

export function InputContentSection() {
  const { t } = useTranslation("apps");
  const enabled = Form.useWatch(["input_content", "enabled"]);
  return (
    <Card
      title={t("form.sections.input_content")}
      className="app-form__card"
      extra={
        <Form.Item name={["input_content", "enabled"]} valuePropName="checked" noStyle>
          <Switch data-testid="app-input-content" />
        </Form.Item>
      }
    >
      <p className="app-form__muted">{t("form.input_content_hint")}</p>
      {enabled && (
        <Form.Item name={["input_content", "variables"]} noStyle>
          <Form.List name={["input_content", "variables"]}>
            {(fields, { add, remove }) => (
              <>
                {fields.map((field) => (
                  <Row key={field.key} gutter={8} data-testid="app-variable-row">
                    <Col xs={12} md={6}>
                      <Form.Item name={[field.name, "name"]} label={t("form.variable_name")}>
                        <Input maxLength={20} />
                      </Form.Item>
                    </Col>
                    <Col xs={12} md={8}>
                      <Form.Item name={[field.name, "prompt"]} label={t("form.variable_prompt")}>
                        <Input maxLength={100} />
                      </Form.Item>
                    </Col>
                    <Col xs={10} md={4}>
                      <Form.Item name={[field.name, "type"]} label={t("form.variable_type")}>
                        <Select
                          options={[
                            { value: "fill", label: t("variable_type.fill") },
                            { value: "select", label: t("variable_type.select") },
                          ]}
                        />
                      </Form.Item>
                    </Col>
                    <Col xs={10} md={4}>
                      <Form.Item name={[field.name, "required"]} label={t("form.variable_required")} valuePropName="checked">
                        <Switch />
                      </Form.Item>
                    </Col>
                    <Col xs={2}>
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        onClick={() => remove(field.name)}
                        aria-label={t("form.remove")}
                        className="app-form__remove"
                      />
                    </Col>
                    <Col xs={24}>
                      <Form.Item name={[field.name, "options"]} label={t("form.variable_options")}>
                        <Select mode="tags" open={false} suffixIcon={null} />
                      </Form.Item>
                    </Col>
                  </Row>
                ))}
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ name: "", prompt: "", type: "fill", required: true, options: [] })}
                  data-testid="app-variable-add"
                >
                  {t("form.variable_add")}
                </Button>
              </>
            )}
          </Form.List>
        </Form.Item>
      )}
    </Card>
  );
}
