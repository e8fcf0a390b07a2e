// The words of a text as content matching compares them (normalizeIdentifier), read fast
// enough for a batch: a K-1 page is hundreds of words, and a batch thousands of pages, every
// word of which may begin an investor's identifier.

// A word is letters, digits and marks. Every other character separates words, so "Mary-Ann",
// "Holdings, LLC" and "3/1/2001" compare by their words, except an apostrophe inside a word,
// which joins: pdfjs reads a typed ' as ’, and some forms print O'BRIEN as OBRIEN. A word is
// then compared in NFKC rather than plain NFC: it composes as NFC does and also unfolds the
// ligatures pdfjs reads from many fonts ('ﬁ' in "Griﬃn") and full-width letters; format
// characters (soft hyphens, zero-width spaces) sit inside words in extracted text, so they go.

/** A text's words, normalized, with where each is in the text (for the snippet). */
export interface Words {
  /** '' for a word read past (see readWords' vocabulary). */
  words: string[];
  starts: number[];
  ends: number[];
}

const asciiWordCharacter = new Uint8Array(128).map((_, c) => Number(/[0-9A-Za-z]/.test(String.fromCharCode(c))));
const wordCharacter = /^[\p{L}\p{N}\p{M}\p{Cf}]$/u;
const apostrophe = /['’‘ʼ＇]/gu;
const isApostrophe = (code: number) => code === 0x27 || code === 0x2019 || code === 0x2018 || code === 0x2bc || code === 0xff07;
const separators = /[^\p{L}\p{N}\p{M}]+/u;

function isWordCharacterAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 128) return asciiWordCharacter[code] === 1;
  return wordCharacter.test(String.fromCodePoint(text.codePointAt(i)!));
}

const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;

/** A hash of an ASCII word as readWords computes it while it reads, before any string is made. */
export function wordHash(word: string): number {
  let hash = fnvOffset;
  for (let i = 0; i < word.length; i += 1) hash = Math.imul(hash ^ word.charCodeAt(i), fnvPrime);
  return hash;
}

/**
 * A text's words in one pass over its characters, without a Unicode regular expression per
 * character or word; only a word with a character outside ASCII, or an apostrophe, is
 * normalized. Given a `vocabulary` (wordHash of every word worth reading), an ASCII word whose
 * hash is not in it is read past as '' (it can be no identifier's), so most words of a page are
 * never copied out; four-digit and one-character words are always kept, for the tax year
 * ("Schedule K-1 (Form 1065) 2025").
 */
export function readWords(text: string, vocabulary?: ReadonlySet<number>): Words {
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const first = text.charCodeAt(i);
    if (first < 128 ? asciiWordCharacter[first] === 0 : !isWordCharacterAt(text, i)) {
      i += 1;
      continue;
    }
    const start = i;
    let plain = true;
    let digits = true;
    let hash = fnvOffset;
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code < 128 && asciiWordCharacter[code] === 1) {
        // | 0x20 lower-cases A-Z and leaves digits as they are.
        hash = Math.imul(hash ^ (code | 0x20), fnvPrime);
        if (code > 0x39) digits = false;
        i += 1;
      } else if (code >= 128 && isWordCharacterAt(text, i)) {
        plain = false;
        i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
      } else if (isApostrophe(code) && i + 1 < length && isWordCharacterAt(text, i + 1)) {
        plain = false;
        i += 1;
      } else break;
    }
    if (plain) {
      const kept = !vocabulary || vocabulary.has(hash) || i - start === 1 || (digits && i - start === 4);
      words.push(kept ? text.slice(start, i).toLowerCase() : '');
      starts.push(start);
      ends.push(i);
      continue;
    }
    const normalized = text.slice(start, i).normalize('NFKC').replace(/\p{Cf}/gu, '').replace(apostrophe, '').toLowerCase();
    for (const part of normalized.split(separators)) {
      if (!part) continue;
      words.push(part);
      starts.push(start);
      ends.push(i);
    }
  }
  return { words, starts, ends };
}

/**
 * An identifier as it is compared: its words, lower case, one space apart ("O’Brien  Holdings,
 * L.L.C." and "obrien holdings l l c" are the same identifier). '' when it has no words.
 */
export function normalizeIdentifier(text: string): string {
  return readWords(text).words.join(' ');
}
