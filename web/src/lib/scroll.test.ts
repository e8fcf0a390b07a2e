import { describe, expect, it } from 'vitest';
import { scrollIntentFor } from './scroll';

const base = { hash: '', state: null, navigationType: 'PUSH', initial: false, hasSavedPosition: false } as const;

describe('scrollIntentFor', () => {
  it('scrolls a new page to the top', () => {
    expect(scrollIntentFor(base)).toEqual({ kind: 'top' });
    expect(scrollIntentFor({ ...base, navigationType: 'REPLACE' })).toEqual({ kind: 'top' });
  });

  it('scrolls to the section named in the entry state (an anchor link from another page)', () => {
    expect(scrollIntentFor({ ...base, state: { section: 'contact' } })).toEqual({
      kind: 'section',
      id: 'contact',
    });
  });

  it('scrolls to the section named in the hash, also on a page load', () => {
    expect(scrollIntentFor({ ...base, hash: '#about' })).toEqual({ kind: 'section', id: 'about' });
    expect(scrollIntentFor({ ...base, hash: '#about', initial: true, navigationType: 'POP' })).toEqual(
      { kind: 'section', id: 'about' },
    );
  });

  it('leaves a page load where the browser put it', () => {
    expect(scrollIntentFor({ ...base, initial: true, navigationType: 'POP' })).toEqual({ kind: 'none' });
  });

  it('restores the saved position on back and forward, even for an entry that named a section', () => {
    const pop = { ...base, navigationType: 'POP', hasSavedPosition: true } as const;
    expect(scrollIntentFor(pop)).toEqual({ kind: 'restore' });
    expect(scrollIntentFor({ ...pop, state: { section: 'contact' } })).toEqual({ kind: 'restore' });
  });

  it('scrolls to the top on back to an entry it never saw', () => {
    expect(scrollIntentFor({ ...base, navigationType: 'POP' })).toEqual({ kind: 'top' });
  });

  it('leaves the position alone when the navigation asks for it', () => {
    expect(scrollIntentFor({ ...base, state: { keepScroll: true } })).toEqual({ kind: 'none' });
  });

  it('ignores state it does not understand', () => {
    expect(scrollIntentFor({ ...base, state: { section: 42 } })).toEqual({ kind: 'top' });
    expect(scrollIntentFor({ ...base, state: 'x' })).toEqual({ kind: 'top' });
  });
});
