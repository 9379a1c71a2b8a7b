// Seeded Vietnamese-looking text: syllables built from real onsets, vowels with tone marks and codas, drawn with a
// Zipf distribution so a few words are very common (like "của", "và") and most are rare, as in real chat.
const ONSETS = [
  '',
  'b',
  'c',
  'ch',
  'd',
  'đ',
  'g',
  'h',
  'kh',
  'l',
  'm',
  'n',
  'ng',
  'nh',
  'ph',
  'qu',
  'r',
  's',
  't',
  'th',
  'tr',
  'v',
  'x',
];
const VOWELS = ['a', 'ă', 'â', 'e', 'ê', 'i', 'o', 'ô', 'ơ', 'u', 'ư', 'ươ', 'iê', 'uô'];
const TONES = ['', '\u0300', '\u0301', '\u0309', '\u0303', '\u0323'];
const CODAS = ['', 'n', 'ng', 'm', 'c', 't', 'nh', 'i', 'u'];

// mulberry32: a fixed seed gives the same corpus on every run.
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface Corpus {
  /** A message of 4–16 words. */
  message(): string;
  /** Two adjacent words of a message from the corpus, typed without accents as people do. */
  twoWordQuery(): string;
}

export function createCorpus(seed: number, vocabularySize = 4000): Corpus {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const words = new Set<string>();
  while (words.size < vocabularySize) {
    const vowel = pick(VOWELS);
    // The tone mark goes on the last vowel letter; NFC composes it as typed on a phone.
    const marked = (vowel.slice(0, -1) + vowel.slice(-1) + pick(TONES)).normalize('NFC');
    words.add(pick(ONSETS) + marked + pick(CODAS));
  }
  const vocabulary = [...words];
  // Zipf (s = 1): cumulative weights 1/rank, sampled by binary search.
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= vocabulary.length; rank++) cumulative.push((total += 1 / rank));
  const word = () => {
    const target = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo] as string;
  };
  const message = () => {
    const count = 4 + Math.floor(random() * 13);
    const text = Array.from({ length: count }, word).join(' ');
    return text.charAt(0).toLocaleUpperCase() + text.slice(1);
  };
  return {
    message,
    twoWordQuery() {
      const parts = message().split(' ');
      const at = Math.floor(random() * (parts.length - 1));
      return `${parts[at]} ${parts[at + 1]}`
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .replace(/[đĐ]/g, 'd')
        .toLowerCase();
    },
  };
}
