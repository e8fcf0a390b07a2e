import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from './file-response';

const seed = Number(process.env.FUZZ_SEED ?? 22);

/** RFC 6266 with RFC 5987's filename*: a quoted ASCII fallback, then the exact name percent-encoded. */
const safeHeader = /^(attachment|inline); filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]*$/;

describe('contentDisposition', () => {
  it('writes a safe header for any name: no raw quote, CR or LF, an ASCII fallback without % or \\, the exact name in filename*', () => {
    const name = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.string({ unit: 'grapheme', maxLength: 50 }),
      fc.constantFrom('a"b\r\nSet-Cookie: x=1.pdf', '100%.pdf', '%41.pdf', 'back\\slash.pdf', '\uD800.pdf', 'Relevé.pdf', '\u202Efdp.pdf', ''),
    );
    fc.assert(
      fc.property(name, fc.constantFrom('inline', 'attachment'), (filename, disposition) => {
        const header = contentDisposition(disposition, filename);
        expect(header).toMatch(safeHeader);
        const fallback = /filename="([^"]*)"/.exec(header)?.[1] ?? '';
        expect(fallback).not.toMatch(/[%\\]/);
        const exact = decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)?.[1] ?? '');
        // Only a lone surrogate (never valid UTF-8) comes back changed, as U+FFFD.
        expect(exact).toBe(filename.replace(/[\uD800-\uDFFF]/g, (c, i: number, s: string) => (/[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(s.slice(i, i + 2)) || /[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(s.slice(i - 1, i + 1)) ? c : '\uFFFD')));
      }),
      { seed, numRuns: 500 },
    );
  });
});
