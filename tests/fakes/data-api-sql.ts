/**
 * The Data API's named parameters (`:name`) rewritten to Postgres positional ones (`$n`), skipping
 * string literals, quoted identifiers, comments and `::` casts.
 *
 * @example toPositional("select :1::int, ':x'") // { text: "select $1::int, ':x'", names: ['1'] }
 */
export function toPositional(sql: string): { text: string; names: string[] } {
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && next === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && /[A-Za-z_$]/.test(next ?? '')) {
      const tag = /^\$[A-Za-z_0-9]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        out += sql.slice(i, stop);
        i = stop;
      } else {
        out += c;
        i++;
      }
    } else if (c === ':' && next === ':') {
      out += '::';
      i += 2;
    } else if (c === ':' && /[A-Za-z_0-9]/.test(next ?? '')) {
      const name = /^[A-Za-z_0-9]+/.exec(sql.slice(i + 1))?.[0] as string;
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      out += `$${index + 1}`;
      i += 1 + name.length;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, names };
}

/** The end (exclusive) of a quoted string or identifier starting at `start`; doubled quotes escape. */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  // E'...' strings escape with backslashes too.
  const backslashes = quote === "'" && /[eE]/.test(sql[start - 1] ?? '');
  while (i < sql.length) {
    const c = sql[i];
    if (backslashes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}
