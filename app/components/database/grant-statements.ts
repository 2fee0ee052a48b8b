// The statements a customer runs to give the platform a database user of its own that may read
// the declared tables and nothing else: CREATE USER, then one GRANT SELECT per table.

const CREATE_TABLE =
  /\bCREATE\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?((?:`(?:[^`]|``)+`|[\w$\u0080-\uffff]+)(?:\s*\.\s*(?:`(?:[^`]|``)+`|[\w$\u0080-\uffff]+))?)/gi;
const NAME_PART = /`(?:[^`]|``)+`|[\w$\u0080-\uffff]+/g;

const quoteName = (name: string) => `\`${name.replace(/`/g, "``")}\``;
const quoteText = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
const unquote = (part: string) => (part.startsWith("`") ? part.slice(1, -1).replace(/``/g, "`") : part);

/** The table names the statements create, as written (without their database), each once. */
export function tablesNamedIn(ddl: string): string[] {
  const names = [...ddl.matchAll(CREATE_TABLE)].map((m) => unquote(m[1].match(NAME_PART)!.at(-1)!));
  return [...new Set(names)];
}

/** CREATE USER and one GRANT SELECT per declared table, for the form's user and database. */
export function grantStatements(input: { username: string; database: string; tables: string[] }): string {
  const user = `${quoteText(input.username || "zelin_reader")}@'%'`;
  const database = quoteName(input.database || "your_database");
  return [`CREATE USER ${user} IDENTIFIED BY '…';`, ...input.tables.map((t) => `GRANT SELECT ON ${database}.${quoteName(t)} TO ${user};`)].join("\n");
}
