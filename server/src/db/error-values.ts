/**
 * Database errors as a log may hold them: without the values of the query. knex puts
 * the SQL with every parameter written in into the message (`insert … values ('Jane', …) - invalid
 * byte sequence…`), MikroORM copies it into its exception and its stack, PostgreSQL's `detail`
 * names the row (`Key (email)=(jane@example.com) already exists.`), and MikroORM's NotFoundError
 * prints its where-condition. The copy keeps what tells an operator what failed and where: the
 * class, the SQLSTATE, the statement with each value replaced by `?`, PostgreSQL's sentence with
 * quoted values replaced, the table, column and constraint, and the stack's frames.
 */
export function withoutQueryValues(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 4) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (isDatabaseError(error)) return cleanCopy(error, cleanDatabaseMessage(error.message), depth);
  if (error.name === 'NotFoundError') return cleanCopy(error, error.message.replace(/ \([\s\S]*$/, ''), depth);
  if (cause instanceof Error) {
    const cleanCause = withoutQueryValues(cause, depth + 1);
    if (cleanCause !== cause) return Object.assign(cleanCopy(error, error.message, depth), { cause: cleanCause });
  }
  return error;
}

/** PostgreSQL's fields that name objects, not values: kept. Everything else pg adds (detail, where, internalQuery, hint) is left out. */
const keptFields = ['code', 'severity', 'table', 'column', 'constraint', 'schema', 'routine'] as const;

function isDatabaseError(error: Error): boolean {
  const { code, severity, sqlState } = error as { code?: unknown; severity?: unknown; sqlState?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && (typeof severity === 'string' || sqlState !== undefined);
}

function cleanCopy(error: Error, message: string, depth: number): Error {
  const copy = new Error(message);
  copy.name = error.name;
  // The frames only: the stack's first lines repeat the message, values and all.
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trim().startsWith('at '));
  copy.stack = [`${error.name}: ${message}`, ...frames].join('\n');
  for (const field of keptFields) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string') (copy as unknown as Record<string, unknown>)[field] = value;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined) (copy as { cause?: unknown }).cause = withoutQueryValues(cause, depth + 1);
  return copy;
}

/** Object kinds PostgreSQL names in double quotes; any other quoted text in its sentence is a value. */
const namedObject = /\b(relation|table|column|constraint|index|type|function|schema|sequence|encoding|database|role|operator|trigger|view|enum)\s*$/i;

/** `<sql with values> - <PostgreSQL's sentence>[\n - detail: …]` → the SQL with `?` for each value, and the sentence with its quoted values replaced. */
export function cleanDatabaseMessage(message: string): string {
  // MikroORM appends pg's detail and hint as lines of their own; the detail names the row.
  const appended = message.search(/\n - (detail|hint): /);
  if (appended !== -1) message = message.slice(0, appended);
  const split = message.lastIndexOf(' - ');
  const sql = split === -1 ? '' : message.slice(0, split);
  const sentence = split === -1 ? message : message.slice(split + 3);
  const cleanSentence = sentence.replace(/"(?:[^"]|"")*"/g, (quoted, offset: number) =>
    namedObject.test(sentence.slice(0, offset)) ? quoted : '"…"',
  );
  return sql ? `${sqlWithoutValues(sql)} - ${cleanSentence}` : cleanSentence;
}

/**
 * The statement with every literal knex wrote in (strings, E'' strings, numbers, true/false)
 * replaced by `?`. Identifiers stay: they are double-quoted or words.
 */
export function sqlWithoutValues(sql: string): string {
  return sql
    .replace(/[Ee]?'(?:[^'\\]|''|\\.)*'/g, '?')
    .replace(/(^|[^\w."$])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w"])/gi, '$1?')
    .replace(/\b(true|false)\b/gi, '?');
}
