import { Collapse } from "antd";
import { useTranslation } from "react-i18next";

/** Questions and answers kept in a namespace as keyed objects: `<base>.<key>.q` and `<base>.<key>.a`. */
export function FaqList({ ns, base, keys }: { ns: string; base: string; keys: readonly string[] }) {
  const { t } = useTranslation(ns);
  return (
    <div className="sp-faq">
      <Collapse
        bordered={false}
        expandIconPlacement="end"
        defaultActiveKey={keys.slice(0, 1)}
        items={keys.map((k) => ({ key: k, label: t(`${base}.${k}.q`), children: <p style={{ margin: 0 }}>{t(`${base}.${k}.a`)}</p> }))}
      />
    </div>
  );
}
