// The functions a training set's query may call: pure computations on the values in front of them.
// A list of what is allowed, never of what is not: anything else (LOAD_FILE, SLEEP, BENCHMARK,
// GET_LOCK, USER(), VERSION(), sequences, a stored function of the customer's, a name qualified
// with a database) is refused by name. EXTRACTVALUE/UPDATEXML are left out although pure: their
// error messages are the classic way to smuggle a value out of a query that returns no rows.

const AGGREGATE = [
  "COUNT", "SUM", "AVG", "MIN", "MAX", "GROUP_CONCAT", "STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP",
  "VARIANCE", "VAR_POP", "VAR_SAMP", "BIT_AND", "BIT_OR", "BIT_XOR", "JSON_ARRAYAGG", "JSON_OBJECTAGG",
];

const WINDOW = ["ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE", "MEDIAN"];

const STRING = [
  "ASCII", "BIN", "BIT_LENGTH", "CHAR", "CHAR_LENGTH", "CHARACTER_LENGTH", "CONCAT", "CONCAT_WS", "CONV", "CONVERT", "ELT",
  "EXPORT_SET", "FIELD", "FIND_IN_SET", "FORMAT", "FROM_BASE64", "HEX", "INSERT", "INSTR", "LCASE", "LEFT", "LENGTH",
  "LOCATE", "LOWER", "LPAD", "LTRIM", "MAKE_SET", "MID", "OCT", "OCTET_LENGTH", "ORD", "POSITION", "QUOTE", "REGEXP_INSTR",
  "REGEXP_LIKE", "REGEXP_REPLACE", "REGEXP_SUBSTR", "REPEAT", "REPLACE", "REVERSE", "RIGHT", "RPAD", "RTRIM", "SOUNDEX",
  "SPACE", "STRCMP", "SUBSTR", "SUBSTRING", "SUBSTRING_INDEX", "TO_BASE64", "TRIM", "UCASE", "UNHEX", "UPPER",
];

const NUMERIC = [
  "ABS", "ACOS", "ASIN", "ATAN", "ATAN2", "BIT_COUNT", "CEIL", "CEILING", "COS", "COT", "CRC32", "DEGREES", "EXP", "FLOOR",
  "GREATEST", "LEAST", "LN", "LOG", "LOG10", "LOG2", "MOD", "PI", "POW", "POWER", "RADIANS", "RAND", "ROUND", "SIGN", "SIN",
  "SQRT", "TAN", "TRUNCATE",
];

const DATE_TIME = [
  "ADDDATE", "ADDTIME", "CONVERT_TZ", "CURDATE", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURTIME", "DATE",
  "DATE_ADD", "DATE_FORMAT", "DATE_SUB", "DATEDIFF", "DAY", "DAYNAME", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "FROM_DAYS",
  "FROM_UNIXTIME", "GET_FORMAT", "HOUR", "LAST_DAY", "LOCALTIME", "LOCALTIMESTAMP", "MAKEDATE", "MAKETIME", "MICROSECOND",
  "MINUTE", "MONTH", "MONTHNAME", "NOW", "PERIOD_ADD", "PERIOD_DIFF", "QUARTER", "SEC_TO_TIME", "SECOND", "STR_TO_DATE",
  "SUBDATE", "SUBTIME", "SYSDATE", "TIME", "TIME_FORMAT", "TIME_TO_SEC", "TIMEDIFF", "TIMESTAMP", "TIMESTAMPADD",
  "TIMESTAMPDIFF", "TO_DAYS", "TO_SECONDS", "UNIX_TIMESTAMP", "UTC_DATE", "UTC_TIME", "UTC_TIMESTAMP", "WEEK", "WEEKDAY",
  "WEEKOFYEAR", "YEAR", "YEARWEEK",
];

const CONDITIONAL = ["COALESCE", "IF", "IFNULL", "INTERVAL", "ISNULL", "NULLIF", "NVL", "NVL2"];

const JSON_FUNCTIONS = [
  "JSON_ARRAY", "JSON_CONTAINS", "JSON_CONTAINS_PATH", "JSON_DEPTH", "JSON_EXTRACT", "JSON_KEYS", "JSON_LENGTH", "JSON_OBJECT",
  "JSON_QUOTE", "JSON_SEARCH", "JSON_TYPE", "JSON_UNQUOTE", "JSON_VALID", "JSON_VALUE",
];

const HASH_AND_NETWORK = ["MD5", "SHA", "SHA1", "SHA2", "INET_ATON", "INET_NTOA", "INET6_ATON", "INET6_NTOA"];

/** Forms the parser models as calls although the server reads them as syntax: EXISTS (…), x = ANY (…), ROW(…). */
const SYNTAX = ["EXISTS", "ANY", "ALL", "SOME", "ROW"];

export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  ...AGGREGATE,
  ...WINDOW,
  ...STRING,
  ...NUMERIC,
  ...DATE_TIME,
  ...CONDITIONAL,
  ...JSON_FUNCTIONS,
  ...HASH_AND_NETWORK,
  ...SYNTAX,
]);
