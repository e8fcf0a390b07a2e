import { describe, expect, it } from 'vitest';
import { pathParts } from './path-parts';

describe('a path cut for middle truncation', () => {
  it.each([
    ['2025-Q3/properties/Heartland Plaza/Report.pdf', { start: '2025-Q3/', middle: 'properties/Heartland Plaza', name: '/Report.pdf', nameEnd: '' }],
    [
      '2025-Q3/properties/General/Quarterly distribution notice, revised 2025.pdf',
      { start: '2025-Q3/', middle: 'properties/General', name: '/Quarterly distribution notice, re', nameEnd: 'vised 2025.pdf' },
    ],
    ['2025-Q4/properties/General/Notice 1.pdf', { start: '2025-Q4/', middle: 'properties/General', name: '/Notice 1.pdf', nameEnd: '' }],
    ['2025-Q4/properties/General/Notice 2025 14.pdf', { start: '2025-Q4/', middle: 'properties/General', name: '/Noti', nameEnd: 'ce 2025 14.pdf' }],
    ['2025-Q3/notes.txt', { start: '', middle: '2025-Q3', name: '/notes.txt', nameEnd: '' }],
    ['/home/anna/Quarters/2025-Q3/investors/k1.pdf', { start: '/home/', middle: 'anna/Quarters/2025-Q3/investors', name: '/k1.pdf', nameEnd: '' }],
    ['C:\\Users\\anna\\Quarters\\k1.pdf', { start: 'C:\\', middle: 'Users\\anna\\Quarters', name: '\\k1.pdf', nameEnd: '' }],
    ['K-1 for Jim Carter, partnership year 2025, final.pdf', { start: '', middle: '', name: 'K-1 for Jim Carter, partnership year 2', nameEnd: '025, final.pdf' }],
    ['k1.pdf', { start: '', middle: '', name: 'k1.pdf', nameEnd: '' }],
    ['/srv/quarters/', { start: '', middle: '/srv', name: '/quarters/', nameEnd: '' }],
    ['/', { start: '', middle: '', name: '/', nameEnd: '' }],
    ['', { start: '', middle: '', name: '', nameEnd: '' }],
  ])('cuts %j into its first folder, the folders between and the file name', (path, parts) => {
    expect(pathParts(path)).toEqual(parts);
    expect(parts.start + parts.middle + parts.name + parts.nameEnd).toBe(path);
  });

  it('keeps every character, Unicode and spaces included', () => {
    const path = '2025-Q3/properties/Café Zürich/Relevé – T3 ①.pdf';
    const { start, middle, name, nameEnd } = pathParts(path);
    expect(start + middle + name + nameEnd).toBe(path);
    expect(name + nameEnd).toBe('/Relevé – T3 ①.pdf');
  });
});
