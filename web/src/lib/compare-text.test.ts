import { describe, expect, it } from 'vitest';
import { compareText } from './compare-text';

const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

// A small deterministic generator, so that a failure can be replayed.
function randomText(seed: { value: number }, alphabet: string, maxLength: number): string {
  const next = () => {
    seed.value = (seed.value * 1103515245 + 12345) % 2147483648;
    return seed.value / 2147483648;
  };
  const length = Math.floor(next() * (maxLength + 1));
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

describe('compareText', () => {
  for (const numeric of [false, true]) {
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric });

    it(`orders ASCII text as Intl.Collator('en', base${numeric ? ', numeric' : ''}) does`, () => {
      const seed = { value: numeric ? 7 : 3 };
      // Names-like text (letters, digits, spaces, a little punctuation) and any printable text.
      const alphabets = ['aAbB01 9-.', 'abcXYZ0123456789 ', printable];
      for (let round = 0; round < 6000; round += 1) {
        const alphabet = alphabets[round % alphabets.length] ?? printable;
        const a = randomText(seed, alphabet, 8);
        const b = randomText(seed, alphabet, 8);
        expect(Math.sign(compareText(a, b, { numeric })), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(
          Math.sign(collator.compare(a, b)),
        );
      }
    });
  }

  it('puts numbers in order of value and ignores case and leading zeros', () => {
    const names = ['Unit 10', 'unit 9', 'Unit 009', 'Alpha', 'alpha 2', 'Alpha 1'];
    expect([...names].sort((a, b) => compareText(a, b, { numeric: true }))).toEqual([
      'Alpha',
      'Alpha 1',
      'alpha 2',
      'unit 9',
      'Unit 009',
      'Unit 10',
    ]);
  });

  it('hands text with other characters to the collator: accents aside', () => {
    expect(compareText('Élan', 'elan')).toBe(0);
    expect(Math.sign(compareText('Café Row', 'Cafe Sq'))).toBe(-1);
  });
});
