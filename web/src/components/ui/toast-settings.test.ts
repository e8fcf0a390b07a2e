import { describe, expect, it } from 'vitest';
import { isToastFocusShortcut } from './toast-settings';

describe('isToastFocusShortcut', () => {
  it('answers F8 alone', () => {
    expect(isToastFocusShortcut(new KeyboardEvent('keydown', { key: 'F8' }))).toBe(true);
    expect(isToastFocusShortcut(new KeyboardEvent('keydown', { key: 'F8', ctrlKey: true }))).toBe(false);
    expect(isToastFocusShortcut(new KeyboardEvent('keydown', { key: 'F7' }))).toBe(false);
  });
});
