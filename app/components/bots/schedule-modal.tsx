// Add or edit a scheduled message (content, a picture or video from the library, send time,
// targets, loop settings). Targets come from the contacts and groups the bot has talked with, or
// are typed in by their platform id. Times are entered in the browser's clock, which the server
// keeps for daily and weekly loops. The words may be left out when a picture or video goes.
import { PlusOutlined } from "@ant-design/icons";
import { App, Button, Form, Input, InputNumber, Modal, Radio, Select, Space, Switch, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { fieldErrorsOf } from "../../lib/api-client";
import { callTrpc, trpc } from "../../lib/trpc";
import { useMutation } from "../../lib/use-mutation";
import { SCHEDULE_CONTENT_MAX, SCHEDULE_LOOPS, ZScheduleInput, type TScheduleInput, type TScheduleLoop } from "../../../server/bots/bots.schema";
import { clearChangedErrors, setFieldIssues, type TFieldIssue } from "./form-errors";
import { nextWholeHour, toLocalInput } from "./schedule-labels";
import { ScheduleMediaField, type TScheduleMediaValue } from "./schedule-media-field";
import type { TScheduleView, TTargetView } from "./types";

type TTarget = { kind: "contact" | "group"; id: string; name: string };
type TValues = { content: string; targets: string[]; send_at: string; loop: TScheduleLoop; every_hours: number | null; enabled: boolean };

const keyOf = (t: { kind: string; id: string }) => `${t.kind}\u0001${t.id}`;

export function ScheduleModal({
  botId,
  schedule,
  targets,
  onClose,
  onSaved,
}: {
  botId: string;
  schedule: TScheduleView | null;
  targets: TTargetView[];
  onClose: () => void;
  onSaved: (s: TScheduleView) => void;
}) {
  const { t } = useTranslation("bots");
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const loop = Form.useWatch("loop", form) as TScheduleLoop | undefined;
  // Every target that can be chosen: those seen, those of the schedule, those typed in.
  const [known, setKnown] = useState<Map<string, TTarget>>(() => {
    const m = new Map<string, TTarget>();
    for (const x of targets) m.set(keyOf(x), { kind: x.kind, id: x.id, name: x.name });
    for (const x of schedule?.targets ?? []) m.set(keyOf(x), x);
    return m;
  });
  const [manualKind, setManualKind] = useState<"contact" | "group">("contact");
  const [manualId, setManualId] = useState("");
  const [media, setMedia] = useState<TScheduleMediaValue | null>(schedule?.media ?? null);
  const chooseMedia = (next: TScheduleMediaValue | null) => {
    setMedia(next);
    // Words are optional once a picture or video goes: the "say something" error no longer holds.
    form.setFields([{ name: "content", errors: [] }]);
  };

  const options = useMemo(() => [...known.entries()].map(([value, x]) => ({ value, label: `${t(`target.${x.kind}`)} · ${x.name || x.id}` })), [known, t]);

  const addManual = () => {
    const id = manualId.trim();
    if (!id) return;
    const target: TTarget = { kind: manualKind, id, name: "" };
    const key = keyOf(target);
    setKnown((m) => new Map(m).set(key, m.get(key) ?? target));
    const chosen = (form.getFieldValue("targets") as string[] | undefined) ?? [];
    if (!chosen.includes(key)) form.setFieldValue("targets", [...chosen, key]);
    form.setFields([{ name: "targets", errors: [] }]);
    setManualId("");
  };

  const show = (issues: TFieldIssue[]) =>
    setFieldIssues(
      form,
      issues.map((i) => ({ ...i, path: i.path.startsWith("targets") ? "targets" : i.path })),
    );
  const send = useMutation(
    async (input: TScheduleInput) => {
      const saved = await callTrpc(() => trpc.bots.schedules.save.mutate(input));
      message.success(t("schedule.saved"));
      onSaved(saved);
    },
    {
      onError: (err) => {
        const fields = fieldErrorsOf(err);
        if (fields.length) show(fields);
        return fields.length > 0;
      },
    },
  );
  const saving = send.busy;

  const save = async () => {
    const v = form.getFieldsValue(true) as TValues;
    const sendAt = v.send_at ? new Date(v.send_at) : null;
    const payload = {
      bot_id: botId,
      schedule_id: schedule?.id,
      content: v.content ?? "",
      media_item_id: media?.id ?? null,
      targets: (v.targets ?? []).map((k) => known.get(k)).filter((x): x is TTarget => Boolean(x)),
      send_at: sendAt && !Number.isNaN(sendAt.getTime()) ? sendAt.toISOString() : "",
      loop: v.loop,
      every_hours: v.loop === "hours" ? (v.every_hours ?? null) : null,
      // The browser's clock at the first send: "daily at 09:00" stays 09:00 for its owner.
      utc_offset_minutes: sendAt && !Number.isNaN(sendAt.getTime()) ? -sendAt.getTimezoneOffset() : -new Date().getTimezoneOffset(),
      enabled: v.enabled,
    };
    const checked = ZScheduleInput.safeParse(payload);
    if (!checked.success) return show(checked.error.issues.map((i) => ({ path: i.path.join("."), message: t(i.message, { ns: "errors" }) })));
    await send.run(checked.data);
  };

  const initial: TValues = schedule
    ? {
        content: schedule.content,
        targets: schedule.targets.map(keyOf),
        send_at: toLocalInput(new Date(schedule.send_at)),
        loop: schedule.loop as TScheduleLoop,
        every_hours: schedule.every_hours,
        enabled: schedule.enabled,
      }
    : { content: "", targets: [], send_at: toLocalInput(nextWholeHour()), loop: "daily", every_hours: 24, enabled: true };

  return (
    <Modal
      open
      title={schedule ? t("schedule.edit_title") : t("schedule.add_title")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("schedule.save")}
      okButtonProps={{ loading: saving, ...({ "data-testid": "schedule-save" } as object) }}
      cancelText={t("settings.cancel")}
      width="min(600px, calc(100vw - 24px))"
      destroyOnHidden
      data-testid="schedule-modal"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={save}
        onValuesChange={(changed) => clearChangedErrors(form, changed)}
        data-testid="schedule-form"
      >
        <Form.Item name="content" label={t("schedule.content")} required={!media}>
          <Input.TextArea rows={4} maxLength={SCHEDULE_CONTENT_MAX} showCount placeholder={t("schedule.content_placeholder")} data-testid="schedule-content" />
        </Form.Item>
        <Form.Item label={t("schedule.media")} extra={t("schedule.media_hint")}>
          <ScheduleMediaField value={media} onChange={chooseMedia} />
        </Form.Item>
        <Form.Item name="targets" label={t("schedule.targets")} required extra={targets.length ? t("schedule.targets_hint") : t("schedule.targets_none")}>
          <Select
            mode="multiple"
            options={options}
            placeholder={t("schedule.targets_placeholder")}
            optionFilterProp="label"
            data-testid="schedule-targets"
            notFoundContent={t("schedule.targets_none")}
          />
        </Form.Item>
        <div className="bots-manual-target">
          <Typography.Text type="secondary">{t("schedule.manual")}</Typography.Text>
          <Space.Compact className="bots-manual-target__row">
            <Select
              value={manualKind}
              onChange={setManualKind}
              options={(["contact", "group"] as const).map((k) => ({ value: k, label: t(`target.${k}`) }))}
              className="bots-manual-target__kind"
              data-testid="schedule-manual-kind"
            />
            <Input
              value={manualId}
              onChange={(e) => setManualId(e.target.value)}
              onPressEnter={(e) => (e.preventDefault(), addManual())}
              placeholder={t("schedule.manual_placeholder")}
              data-testid="schedule-manual-id"
            />
            <Button icon={<PlusOutlined />} onClick={addManual} data-testid="schedule-manual-add">
              {t("schedule.manual_add")}
            </Button>
          </Space.Compact>
        </div>
        <Form.Item name="send_at" label={loop === "once" ? t("schedule.send_at_once") : t("schedule.send_at")} required extra={t("schedule.send_at_hint")}>
          <Input type="datetime-local" data-testid="schedule-send-at" />
        </Form.Item>
        <Form.Item name="loop" label={t("schedule.loop")}>
          <Radio.Group data-testid="schedule-loop" options={SCHEDULE_LOOPS.map((l) => ({ value: l, label: t(`loop.${l}`) }))} />
        </Form.Item>
        {loop === "hours" && (
          <Form.Item name="every_hours" label={t("schedule.every_hours")} required>
            <InputNumber min={1} max={720} precision={0} addonAfter={t("schedule.hours_unit")} data-testid="schedule-every-hours" />
          </Form.Item>
        )}
        <Form.Item name="enabled" label={t("schedule.enabled")} valuePropName="checked">
          <Switch data-testid="schedule-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
