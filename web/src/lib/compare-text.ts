/**
 * Text order as readers expect it, the order of `Intl.Collator('en', { sensitivity: 'base' })`:
 * letter case and accents aside, spaces and punctuation before digits before letters, and (with
 * `numeric`) runs of digits by their value.
 *
 * Why not the collator alone: its first use on a page loads ICU's collation data, 20 to 40 ms of
 * main thread (measured in Chromium), and the property list and map sort names as they first
 * render. Plain ASCII text, which every property name and state code is, is compared here in
 * the collator's own order (compare-text.test.ts checks the two agree); any other text goes to
 * the collator.
 */
export function compareText(a: string, b: string, { numeric = false } = {}): number {
  if (isAscii(a) && isAscii(b)) return compareAscii(a, b, numeric);
  return collator(numeric).compare(a, b);
}

// The collator's primary order of printable ASCII, after lower-casing (en, root collation).
const asciiOrder = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz';
const weights = new Map([...asciiOrder].map((char, index) => [char.charCodeAt(0), index]));

const isAscii = (text: string) => /^[\x20-\x7e]*$/.test(text);
const isDigit = (code: number) => code >= 48 && code <= 57;
const weightOf = (code: number) => weights.get(code >= 65 && code <= 90 ? code + 32 : code) ?? 0;

function compareAscii(a: string, b: string, numeric: boolean): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (numeric && isDigit(ca) && isDigit(cb)) {
      const endA = digitsEnd(a, i);
      const endB = digitsEnd(b, j);
      const order = compareNumbers(a.slice(i, endA), b.slice(j, endB));
      if (order !== 0) return order;
      i = endA;
      j = endB;
      continue;
    }
    const order = weightOf(ca) - weightOf(cb);
    if (order !== 0) return Math.sign(order);
    i += 1;
    j += 1;
  }
  return Math.sign(a.length - i - (b.length - j));
}

function digitsEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
  return end;
}

/** Two runs of digits by value; leading zeros do not count, as in the collator. */
function compareNumbers(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return Math.sign(x.length - y.length);
  return x < y ? -1 : x > y ? 1 : 0;
}

const collators = new Map<boolean, Intl.Collator>();
function collator(numeric: boolean): Intl.Collator {
  let made = collators.get(numeric);
  if (!made) {
    made = new Intl.Collator('en', { sensitivity: 'base', numeric });
    collators.set(numeric, made);
  }
  return made;
}
