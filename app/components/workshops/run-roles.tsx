// Who is in the room: each role's avatar (its agent's picture, else its initial on a colour of its
// own), its name, and who plays it; the person's own role is marked as theirs.
import { useTranslation } from "react-i18next";
import type { TRunView } from "../../../server/workshops/workshops.schema";

export type TRunRole = TRunView["roles"][number];

const COLOURS = ["#4f46e5", "#0891b2", "#059669", "#d97706", "#db2777", "#7c3aed", "#2563eb", "#dc2626"];

/** A role's colour: by its place among the roles (each its own), else from its name. */
function colourOf(name: string, place: number) {
  if (place >= 0) return COLOURS[place % COLOURS.length];
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[h % COLOURS.length];
}

/** The person's own role: a user role no agent stands in for. */
export const isPersonRole = (role: Pick<TRunRole, "type" | "hosting"> | undefined) => role?.type === "user" && !role.hosting;

export function RoleAvatar({ role, name, place = -1, size = 36 }: { role?: TRunRole; name: string; place?: number; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.42) };
  if (role?.avatarUrl) return <img className="wsr-avatar" src={role.avatarUrl} alt="" style={style} />;
  return (
    <span
      className={`wsr-avatar wsr-avatar--initial${isPersonRole(role) ? " is-person" : ""}`}
      style={{ ...style, background: colourOf(name, place) }}
      aria-hidden="true"
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** Who plays the role, in a few words. */
export function RoleCaption({ role }: { role: TRunRole }) {
  const { t } = useTranslation("workshops");
  if (isPersonRole(role)) return <>{t("run.role_you")}</>;
  if (role.type === "user") return <>{t("run.role_hosted", { agent: role.agentName ?? "" })}</>;
  return <>{role.agentName ?? t("run.role_agent")}</>;
}

export function RolesStrip({ roles, speaking, waiting }: { roles: TRunRole[]; speaking: string | null; waiting: string | null }) {
  const { t } = useTranslation("workshops");
  return (
    <ul className="wsr-roles" aria-label={t("run.roles")} data-testid="run-roles">
      {roles.map((r, i) => (
        <li
          key={r.name}
          className={`wsr-role${speaking === r.name ? " is-speaking" : ""}${waiting === r.name ? " is-waiting" : ""}`}
          data-testid="run-role"
          data-name={r.name}
        >
          <RoleAvatar role={r} name={r.name} place={i} size={40} />
          <span className="wsr-role__name">{r.name}</span>
          <small className="wsr-role__who">
            <RoleCaption role={r} />
          </small>
        </li>
      ))}
    </ul>
  );
}
