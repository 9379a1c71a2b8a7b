import { foldedWords } from '@daohuu/domain';
import { sql, type RawBuilder } from 'kysely';
import { lowerText } from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { FILTER_LIMITS, likePrefix } from '../../core/query/filter.ts';

/*
 * How a searched text matches a message, as Vietnamese users type: case, accents and đ/d do not matter ("dao huu"
 * finds "Đạo hữu"), every word typed must be a word of the message, and the last one may be the start of a word
 * (the user is still typing it). Messages keep their folded words in `search_text` (migration 0007): SQLite looks
 * them up in the FTS5 index `messages_fts`, PostgreSQL with LIKE on the padded column (a pg_trgm GIN index).
 */

/** More words than anyone types into a search box; each one is a term of the index lookup. */
export const MAX_QUERY_WORDS = 32;

/** A searched text, checked and folded. */
export interface TextQuery {
  /** As typed, lower-cased: a message containing it verbatim ranks first. */
  exact: string;
  /** Its folded words; empty for a text of only emoji or punctuation (then it is matched verbatim). */
  words: string[];
}

export function readTextQuery(value: unknown): TextQuery {
  if (typeof value !== 'string' || !value.trim())
    throw chatError.input('the search text must be a non-empty string');
  if (value.length > FILTER_LIMITS.maxStringLength)
    throw chatError.input(
      `the search text is longer than ${FILTER_LIMITS.maxStringLength} characters`,
    );
  const words = foldedWords(value);
  if (words.length > MAX_QUERY_WORDS)
    throw chatError.input(`the search text has more than ${MAX_QUERY_WORDS} words`);
  return { exact: value.trim().normalize('NFC').toLocaleLowerCase(), words };
}

/** The FTS5 query: every word, the last one as a prefix. Words are letters and digits only, so quoting is safe. */
export function ftsQuery(words: string[]): string {
  return words.map((word, i) => (i === words.length - 1 ? `"${word}"*` : `"${word}"`)).join(' ');
}

// Text typed without accents (most queries) is all ASCII.
const ASCII_ONLY = /^[\p{ASCII}]*$/u;

function containsExact(dialect: SqlDialectKind, alias: string, exact: string): RawBuilder<boolean> {
  // An ASCII query can only be found in ASCII letters, and SQLite's own lower() folds those the same way as the
  // Unicode-aware JavaScript function, without a call into JavaScript per candidate (about a quarter of the query's
  // CPU time, bench/search/levers.ts).
  const text =
    dialect === 'sqlite' && ASCII_ONLY.test(exact)
      ? sql<string>`lower(${sql.ref(`${alias}.text`)})`
      : lowerText(dialect, sql.ref(`${alias}.text`));
  return dialect === 'sqlite'
    ? sql<boolean>`(instr(${text}, ${exact}) > 0)`
    : sql<boolean>`(strpos(${text}, ${exact}) > 0)`;
}

/** SQL: the message aliased `alias` matches `query`. */
export function textMatches(
  dialect: SqlDialectKind,
  alias: string,
  query: TextQuery,
): RawBuilder<boolean> {
  const { words } = query;
  if (words.length === 0) return containsExact(dialect, alias, query.exact);
  if (dialect === 'sqlite')
    return sql<boolean>`(${sql.ref(`${alias}.rowid`)} in (select rowid from messages_fts where messages_fts match ${ftsQuery(words)}))`;
  const column = sql.ref(`${alias}.search_text`);
  const terms = words.map((word, i) => {
    const pattern = i === words.length - 1 ? `% ${likePrefix(word)}%` : `% ${likePrefix(word)} %`;
    return sql<boolean>`${column} like ${pattern} escape '\\'`;
  });
  return sql<boolean>`(${sql.join(terms, sql` and `)})`;
}

/**
 * SQL: how well the message aliased `alias` matches `query`: 2 when it contains the text as typed (with its
 * diacritics), plus 1 when it contains the words as one phrase. Ties are broken by the sort keys after it.
 */
export function relevance(
  dialect: SqlDialectKind,
  alias: string,
  query: TextQuery | null,
): RawBuilder<number> {
  // Not a bare `0`: SQLite reads an integer literal in ORDER BY as a column number.
  if (!query) return sql<number>`cast(0 as integer)`;
  const exact = sql<number>`(case when ${containsExact(dialect, alias, query.exact)} then 2 else 0 end)`;
  if (query.words.length === 0) return exact;
  const phrase = `% ${likePrefix(query.words.join(' '))}%`;
  return sql<number>`(${exact} + case when ${sql.ref(`${alias}.search_text`)} like ${phrase} escape '\\' then 1 else 0 end)`;
}
