// What the form tells a customer to give the platform's database user: a user of its own with
// SELECT on the declared tables only, written out with the form's user, database and tables. No
// FILE privilege and nothing on other databases: whatever the query guard might miss, the server
// itself then refuses.
import { SafetyOutlined } from "@ant-design/icons";
import { Alert } from "antd";
import { useTranslation } from "react-i18next";
import { grantStatements, tablesNamedIn } from "./grant-statements";

export function GrantHelp({ username, database, ddl }: { username: string; database: string; ddl: string }) {
  const { t } = useTranslation("database");
  const tables = tablesNamedIn(ddl);
  return (
    <Alert
      className="db-form__note"
      type="info"
      showIcon
      icon={<SafetyOutlined />}
      message={t("security_note")}
      description={
        <div data-testid="db-grant-help">
          <div className="db-grant__title">{t("grants.title")}</div>
          <p className="db-grant__help">{t("grants.help")}</p>
          {tables.length ? (
            <pre className="db-grant__code" data-testid="db-grant-statements">
              {grantStatements({ username, database, tables })}
            </pre>
          ) : (
            <p className="db-grant__help">{t("grants.no_tables")}</p>
          )}
        </div>
      }
    />
  );
}
