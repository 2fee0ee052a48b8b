// One withdrawal as its owner or an administrator sees it: state, amount, tax, received, payee,
// and the note when it was abnormal. Strings in the "withdrawals" namespace.
import { Alert, Card, Descriptions, Tag } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LocalDate } from "../../ui/local-date";
import type { TWithdrawalView } from "../../../../server/money/withdrawals/withdrawals.schema";
import { formatZ, yuanToMicro } from "../../../../server/money/money-format";

export const STATE_COLOURS = { submitted: "processing", arrived: "success", abnormal: "error" } as const;

/** `idNumber` replaces the masked hint (what an administrator sees). */
export function WithdrawalCard({ item, idNumber, extra, children }: { item: TWithdrawalView; idNumber?: ReactNode; extra?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation("withdrawals");
  return (
    <Card
      size="small"
      className="wd-item"
      data-testid="withdrawal-item"
      data-state={item.state}
      data-id={item.id}
      title={
        <>
          <Tag color={STATE_COLOURS[item.state]} data-testid="withdrawal-state">
            {t(`states.${item.state}`)}
          </Tag>
          <span>
            <LocalDate iso={item.created_at} withTime />
          </span>
        </>
      }
      extra={extra}
    >
      <div className="wd-amounts">
        <div>
          <small className="console__hint">{t("confirm.amount")}</small>
          <div>
            <strong data-testid="withdrawal-item-amount">{formatZ(yuanToMicro(item.amount))}</strong>
          </div>
        </div>
        <div>
          <small className="console__hint">{t("confirm.tax")}</small>
          <div>
            <strong data-testid="withdrawal-item-tax">{formatZ(yuanToMicro(item.tax))}</strong>
          </div>
        </div>
        <div>
          <small className="console__hint">{t("confirm.received")}</small>
          <div>
            <strong data-testid="withdrawal-item-received">{formatZ(yuanToMicro(item.received))}</strong>
          </div>
        </div>
      </div>
      <Descriptions column={{ xs: 1, sm: 2 }} size="small" style={{ marginTop: 8 }}>
        <Descriptions.Item label={t("form.real_name")}>{item.real_name}</Descriptions.Item>
        <Descriptions.Item label={t("form.id_number")}>{idNumber ?? item.id_number_hint}</Descriptions.Item>
        <Descriptions.Item label={t("form.phone")}>{item.phone}</Descriptions.Item>
        {item.reviewed_at && (
          <Descriptions.Item label={t("mine.reviewed_at")}>
            <LocalDate iso={item.reviewed_at} withTime />
          </Descriptions.Item>
        )}
      </Descriptions>
      {item.state === "submitted" && idNumber === undefined && <div className="console__hint">{t("mine.submitted_hint")}</div>}
      {item.state === "abnormal" && (
        <Alert
          type="error"
          showIcon
          message={t("mine.abnormal_note", { note: item.note ?? "" })}
          description={t("mine.abnormal_returned")}
          data-testid="withdrawal-note"
        />
      )}
      {children}
    </Card>
  );
}
