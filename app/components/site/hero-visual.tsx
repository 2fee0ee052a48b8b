import { RobotOutlined, SendOutlined, WalletOutlined } from "@ant-design/icons";
import { useTranslation } from "react-i18next";
import { CHANNELS } from "./channel-icons";
import { IconBadge } from "./icon-card";

/** The landing page's picture of the product: an agent being configured, chatting, published and earning. */
export function HeroVisual() {
  const { t } = useTranslation("home");
  return (
    <div className="hv" role="img" aria-label={t("demo.aria")}>
      <div className="hv__window">
        <div className="hv__bar">
          <i />
          <i />
          <i />
          <span>{t("demo.window_title")}</span>
        </div>
        <div className="hv__body">
          <div className="hv__config">
            <div className="hv__agent">
              <span className="hv__avatar">
                <RobotOutlined />
              </span>
              <div>
                <b>{t("demo.agent_name")}</b>
                <small>{t("demo.agent_meta")}</small>
              </div>
            </div>
            <div className="hv__field">
              <b>{t("demo.role_label")}</b>
              <div className="hv__lines">
                <i />
                <i />
                <i />
              </div>
            </div>
            <div className="hv__field">
              <b>{t("demo.knowledge_label")}</b>
              <div className="hv__chips">
                <em>{t("demo.knowledge_1")}</em>
                <em>{t("demo.knowledge_2")}</em>
              </div>
            </div>
            <div className="hv__field">
              <b>{t("demo.plugins_label")}</b>
              <div className="hv__chips">
                <em>{t("demo.plugin_1")}</em>
                <em>{t("demo.plugin_2")}</em>
              </div>
            </div>
            <div className="hv__field">
              <b>{t("demo.temperature_label")}</b>
              <div className="hv__slider" />
            </div>
          </div>
          <div className="hv__chat">
            <div className="hv__msg hv__msg--user">{t("demo.user_msg")}</div>
            <div className="hv__msg hv__msg--bot">
              {t("demo.bot_msg")}
              <ul>
                <li>{t("demo.bot_item_1")}</li>
                <li>{t("demo.bot_item_2")}</li>
              </ul>
            </div>
            <div className="hv__msg hv__msg--user">{t("demo.user_msg_2")}</div>
            <div className="hv__typing">
              <i />
              <i />
              <i />
            </div>
            <div className="hv__input">
              {t("demo.input_placeholder")}
              <span className="hv__send">
                <SendOutlined />
              </span>
            </div>
          </div>
        </div>
      </div>
      <div className="hv__float hv__float--earn">
        <IconBadge icon={<WalletOutlined />} tone="emerald" small />
        <div>
          <small>{t("demo.earn_label")}</small>
          <strong>{t("demo.earn_value")}</strong>
        </div>
      </div>
      <div className="hv__float hv__float--publish">
        <b>{t("demo.published")}</b>
        <div className="hv__channels">
          {CHANNELS.map((c) => (
            <span key={c.key}>
              {c.icon}
              {t(`channels.${c.key}`)}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}
