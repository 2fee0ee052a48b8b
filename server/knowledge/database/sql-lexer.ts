// The SQL text read the way MySQL and MariaDB lex it, before any parser sees it. The guard's parser
// and the server must agree on where every string, name and statement begins and ends; wherever
// the two readings can differ, the text is refused rather than guessed at:
// - every comment (`-- `, `#`, `/* */`, `/*! */`, `/*M! */`, `/*+ */`) and any `--`: the server reads
//   `--0` as two minus signs, a parser as a comment;
// - backslash escapes that move a string's end (`\'`, `\"`, `\\`) and `\N`: whether a backslash
//   escapes depends on NO_BACKSLASH_ESCAPES; doubled quotes ('') end nowhere under either mode;
// - doubled or backslashed backticks in names, unterminated quotes;
// - NUL and control characters, format characters (zero-width, bidi), non-ASCII spaces and
//   characters Unicode folds to others (fullwidth letters) outside strings;
// - a number glued to a name (`1e1from`, `0x1g`), `.5` glued to a name, `{ }` (ODBC escapes),
//   `[ ]`, `?` and `:`; `@` (variables); `;` other than one at the very end.
// Inside strings any character but NUL may appear: it changes no boundary.

export type TSqlTokenKind = "word" | "number" | "string" | "name" | "symbol";
export type TSqlToken = { kind: TSqlTokenKind; text: string; at: number };

/** Why the text was refused: a key of database:sql_refusals and its parameters. */
export class SqlLexRefusal extends Error {
  constructor(
    readonly reason: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`sql refused by the lexer: ${reason}`);
  }
}

const SYMBOLS = new Set(["(", ")", ",", ".", "+", "-", "*", "/", "%", "=", "<", ">", "!", "~", "^", "&", "|"]);
const AMBIGUOUS = new Set(["{", "}", "[", "]", "?", ":"]);
const ODD_CATEGORY = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zs}\p{Zl}\p{Zp}]/u;
const HEX = /^0x[0-9a-fA-F]+/;
const BIT = /^0b[01]+/;
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

function codeOf(ch: string) {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

function isWordChar(ch: string | undefined): boolean {
  if (!ch) return false;
  return /[A-Za-z0-9_$]/.test(ch) || ch.codePointAt(0)! >= 0x80;
}

/** A character outside strings the servers could read as something else, or that hides itself. */
function assertPlainChar(ch: string) {
  const cp = ch.codePointAt(0)!;
  if (cp === 0 || ((cp < 0x20 || cp === 0x7f) && ch !== "\t" && ch !== "\n" && ch !== "\r")) throw new SqlLexRefusal("character", { char: codeOf(ch) });
  if (cp < 0x80) return;
  if (ODD_CATEGORY.test(ch) || ch.normalize("NFKC") !== ch) throw new SqlLexRefusal("character", { char: `${ch} (${codeOf(ch)})` });
}

class Lexer {
  private i = 0;
  readonly tokens: TSqlToken[] = [];

  constructor(private readonly sql: string) {}

  private at(offset = 0): string | undefined {
    const cp = this.sql.codePointAt(this.i + offset);
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }

  private push(kind: TSqlTokenKind, start: number) {
    this.tokens.push({ kind, text: this.sql.slice(start, this.i), at: start });
  }

  /** True when the previous token ends right here (no space in between) and is a name or number. */
  private gluedToName(): boolean {
    const last = this.tokens.at(-1);
    return !!last && last.at + last.text.length === this.i && (last.kind === "word" || last.kind === "name" || last.kind === "number");
  }

  run(): TSqlToken[] {
    while (this.i < this.sql.length) this.step();
    return this.tokens;
  }

  private step() {
    const ch = this.at()!;
    const next = this.sql[this.i + 1];
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") return void this.i++;
    if (ch === "'" || ch === '"') return this.readString(ch);
    if (ch === "`") return this.readName();
    if (ch === "-" && next === "-") throw new SqlLexRefusal("comment");
    if (ch === "#") throw new SqlLexRefusal("comment");
    if (ch === "/" && next === "*") throw new SqlLexRefusal(/^\/\*(!|[Mm]!|\+)/.test(this.sql.slice(this.i, this.i + 4)) ? "executable_comment" : "comment");
    if (ch === ";") return this.readEnd();
    if (ch === "@") throw new SqlLexRefusal("variables");
    if (ch === "\\") throw new SqlLexRefusal("escape");
    if (AMBIGUOUS.has(ch)) throw new SqlLexRefusal("ambiguous", { text: ch });
    if (/[0-9]/.test(ch) || (ch === "." && /[0-9]/.test(next ?? ""))) return this.readNumber();
    if (isWordChar(ch)) return this.readWord();
    if (SYMBOLS.has(ch)) {
      this.i++;
      return this.push("symbol", this.i - 1);
    }
    assertPlainChar(ch);
    throw new SqlLexRefusal("character", { char: `${ch} (${codeOf(ch)})` });
  }

  private readString(quote: string) {
    const start = this.i++;
    for (;;) {
      const ch = this.sql[this.i];
      if (ch === undefined) throw new SqlLexRefusal("unterminated");
      if (ch === "\0") throw new SqlLexRefusal("character", { char: codeOf(ch) });
      if (ch === "\\") {
        const escaped = this.sql[this.i + 1];
        if (escaped === undefined || escaped === "'" || escaped === '"' || escaped === "\\") throw new SqlLexRefusal("escape");
        this.i += 2;
        continue;
      }
      if (ch === quote) {
        // A doubled quote is a quote inside the string under every sql_mode.
        if (this.sql[this.i + 1] === quote) {
          this.i += 2;
          continue;
        }
        this.i++;
        return this.push("string", start);
      }
      this.i++;
    }
  }

  private readName() {
    const start = this.i++;
    for (;;) {
      const ch = this.at();
      if (ch === undefined) throw new SqlLexRefusal("unterminated");
      if (ch === "`") {
        if (this.sql[this.i + 1] === "`") throw new SqlLexRefusal("ambiguous", { text: "``" });
        this.i++;
        return this.push("name", start);
      }
      if (ch === "\\") throw new SqlLexRefusal("escape");
      assertPlainChar(ch);
      this.i += ch.length;
    }
  }

  private readNumber() {
    if (this.sql[this.i] === "." && this.gluedToName()) throw new SqlLexRefusal("ambiguous", { text: this.wordAt(this.i) });
    const start = this.i;
    const rest = this.sql.slice(this.i);
    const match = HEX.exec(rest) ?? BIT.exec(rest) ?? DECIMAL.exec(rest);
    this.i += match![0].length;
    // `1e1from`, `0x1g`, `2abc`: a number and a name to one reading, one name to the other.
    const after = this.at();
    if (after && after.codePointAt(0)! >= 0x80) assertPlainChar(after);
    if (isWordChar(after) || (this.sql[this.i] === "." && /[0-9]/.test(this.sql[this.i + 1] ?? "")))
      throw new SqlLexRefusal("ambiguous", { text: this.wordAt(start) });
    this.push("number", start);
  }

  private readWord() {
    const start = this.i;
    for (let ch = this.at(); isWordChar(ch); ch = this.at()) {
      assertPlainChar(ch!);
      this.i += ch!.length;
    }
    this.push("word", start);
  }

  /** One `;` may end the text; anything after it but spaces would be a second statement. */
  private readEnd() {
    if (!/^[ \t\n\r]*$/.test(this.sql.slice(this.i + 1))) throw new SqlLexRefusal("one_statement");
    this.i = this.sql.length;
  }

  /** The run of word characters and dots around `from`, to name in a refusal. */
  private wordAt(from: number) {
    const m = /^[.\w$\u0080-\uffff]+/.exec(this.sql.slice(from));
    return (m?.[0] ?? this.sql[from]).slice(0, 40);
  }
}

/** The tokens of `sql` as the server reads them; throws SqlLexRefusal where readings could differ. */
export function lexSql(sql: string): TSqlToken[] {
  return new Lexer(sql).run();
}
