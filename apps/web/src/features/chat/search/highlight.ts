import { foldVietnamese, foldedWords } from '@daohuu/domain';

/** A run of the original text, marked when it matches a word of the query. */
export interface HighlightSegment {
  text: string;
  match: boolean;
}

interface Range {
  start: number;
  end: number;
}

/**
 * The folded text with, for every folded code unit, the span of the original character it came from. Folding one
 * character at a time keeps that link: "Đ" folds to "d", "ộ" to "o", and a combining mark (text typed in NFD) to
 * nothing, so it stays glued to the letter before it.
 */
function foldWithOrigins(text: string): { folded: string; starts: number[]; ends: number[] } {
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const char of text) {
    const piece = foldVietnamese(char);
    for (let i = 0; i < piece.length; i += 1) {
      starts.push(offset);
      ends.push(offset + char.length);
    }
    folded += piece;
    offset += char.length;
  }
  return { folded, starts, ends };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordStart(folded: string, index: number): boolean {
  return index === 0 || !WORD_CHAR.test(folded.charAt(index - 1));
}

/** Moves past combining marks that follow a match, so "to" in an NFD "Tô" takes the circumflex with it. */
function extendOverMarks(text: string, end: number): number {
  let next = end;
  while (next < text.length) {
    const char = String.fromCodePoint(text.codePointAt(next) ?? 0);
    if (foldVietnamese(char) !== '') break;
    next += char.length;
  }
  return next;
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Where the words of `query` start a word of `text`, as spans of the original text. Matching is on folded text
 * (foldVietnamese: no accents, "đ" as "d", any case), the rule the server's search uses, so "tong mon" marks
 * "Tông môn" and each query word matches the beginning of a word, as the search itself does.
 */
export function matchRanges(text: string, query: string): Range[] {
  const words = [...new Set(foldedWords(query))];
  if (words.length === 0 || text.length === 0) return [];
  const { folded, starts, ends } = foldWithOrigins(text);
  const ranges: Range[] = [];
  for (const word of words) {
    for (let at = folded.indexOf(word); at !== -1; at = folded.indexOf(word, at + 1)) {
      if (!isWordStart(folded, at)) continue;
      const start = starts[at];
      const end = ends[at + word.length - 1];
      if (start === undefined || end === undefined) continue;
      ranges.push({ start, end: extendOverMarks(text, end) });
    }
  }
  return mergeRanges(ranges);
}

/** `text` cut into plain and matching runs, in order; joined back they are exactly `text`. */
export function highlightSegments(text: string, query: string): HighlightSegment[] {
  const segments: HighlightSegment[] = [];
  let cursor = 0;
  for (const { start, end } of matchRanges(text, query)) {
    if (start > cursor) segments.push({ text: text.slice(cursor, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    cursor = end;
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor), match: false });
  return segments;
}

/**
 * A long text cut to a window around its first match, so the match is on screen; "…" marks what was cut. Short
 * texts and texts without a match come back whole (a long one without a match is cut at its end only).
 */
export function highlightSnippet(text: string, query: string, maxLength = 160): string {
  if (text.length <= maxLength) return text;
  const first = matchRanges(text, query)[0];
  const context = Math.floor(maxLength / 4);
  const start = first && first.start > context ? first.start - context : 0;
  // Never cut a surrogate pair (an emoji) in half.
  const safeStart = start > 0 && /[\uDC00-\uDFFF]/.test(text.charAt(start)) ? start - 1 : start;
  let end = Math.min(text.length, safeStart + maxLength);
  if (end < text.length && /[\uDC00-\uDFFF]/.test(text.charAt(end))) end += 1;
  return `${safeStart > 0 ? '…' : ''}${text.slice(safeStart, end)}${end < text.length ? '…' : ''}`;
}
