/**
 * Column and table comments of a SQLite table, read from its `CREATE TABLE` text as SQLite keeps it in
 * `sqlite_schema.sql`: SQLite has no `COMMENT ON`, so the convention (used by `sandbox db build --engine sqlite`
 * and by tools such as DB Browser for SQLite) is a `-- comment` after a column's definition, and one before the
 * first column for the table.
 */
export function columnComments(createSql: string): { table: string | null; columns: Map<string, string> } {
  const columns = new Map<string, string>();
  const open = createSql.indexOf('(');
  if (open < 0) return { table: null, columns };
  const lines = createSql.slice(open + 1).split('\n');
  let table: string | null = null;
  let current: string | undefined;
  for (const line of lines) {
    const comment = /--\s?(.*)$/u.exec(line);
    const definition = line.replace(/--.*$/u, '').trim();
    const name = /^(?:"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][\w$]*))/u.exec(definition);
    const isConstraint = /^(?:PRIMARY|UNIQUE|FOREIGN|CHECK|CONSTRAINT)\b/iu.test(definition);
    if (name && !isConstraint) current = (name[1]?.replaceAll('""', '"') ?? name[2] ?? name[3] ?? name[4]!).toLowerCase();
    if (!comment) continue;
    const text = comment[1]!.trim();
    if (!text) continue;
    if (definition === '' && current === undefined) table = table ? `${table} ${text}` : text;
    else if (current !== undefined) columns.set(current, columns.has(current) && definition === '' ? `${columns.get(current)} ${text}` : text);
  }
  return { table, columns };
}
