import { foldedWords, foldVietnamese } from '@daohuu/domain';

/**
 * A block list compiled for matching. Beyond Stream's whole-word, case-insensitive match, matching is
 * Vietnamese-aware: accents, case and đ/d are folded away, and a word spelt letter by letter with spaces or dots
 * between ("d.m", "đ m") is caught as the word ("dm"). Only whole folded words and whole runs of single letters
 * match, so a listed word never matches inside a longer word ("dm" does not match "dam").
 */
export interface BlocklistMatcher {
  /** The first listed word (folded) the text contains, if any. */
  match(text: string): string | undefined;
}

/** A listed entry as matched: its folded words joined by one space ("con cho" for "Con  chó"). */
export function foldedEntry(word: string): string {
  return foldedWords(word).join(' ');
}

export function compileBlocklist(words: readonly string[]): BlocklistMatcher {
  const entries = new Set<string>();
  // Single-word entries, for runs of separated letters ("d.m").
  const compact = new Set<string>();
  let maxTokens = 1;
  let maxCompact = 0;
  for (const word of words) {
    const tokens = foldedWords(word);
    if (tokens.length === 0) continue;
    entries.add(tokens.join(' '));
    maxTokens = Math.max(maxTokens, tokens.length);
    if (tokens.length === 1) {
      compact.add(tokens[0]!);
      maxCompact = Math.max(maxCompact, tokens[0]!.length);
    }
  }
  if (entries.size === 0) return { match: () => undefined };
  return {
    match(text) {
      const tokens = foldVietnamese(text).match(/[\p{L}\p{N}]+/gu);
      if (!tokens) return undefined;
      return (
        matchPhrases(tokens, entries, maxTokens) ?? matchLetterRuns(tokens, compact, maxCompact)
      );
    },
  };
}

function matchPhrases(
  tokens: string[],
  entries: Set<string>,
  maxTokens: number,
): string | undefined {
  for (let start = 0; start < tokens.length; start += 1) {
    let phrase = '';
    for (let end = start; end < tokens.length && end - start < maxTokens; end += 1) {
      phrase = end === start ? tokens[start]! : `${phrase} ${tokens[end]!}`;
      if (entries.has(phrase)) return phrase;
    }
  }
  return undefined;
}

/** Consecutive one-letter tokens ("d", "m" of "d.m") read as one word, from any start within the run. */
function matchLetterRuns(
  tokens: string[],
  compact: Set<string>,
  maxLength: number,
): string | undefined {
  if (maxLength < 2) return undefined;
  for (let start = 0; start < tokens.length; start += 1) {
    if ([...tokens[start]!].length !== 1) continue;
    let word = '';
    for (let end = start; end < tokens.length && [...tokens[end]!].length === 1; end += 1) {
      word += tokens[end]!;
      if (word.length > maxLength) break;
      if (end > start && compact.has(word)) return word;
    }
  }
  return undefined;
}
