import { describe, expect, it } from 'vitest';
import { checkPassword, joinNaturally, newPassword, passwordProblems } from './password';

describe('checkPassword', () => {
  it('accepts a password that meets every requirement', () => {
    expect(checkPassword('Everest@2025')).toBeNull();
    expect(passwordProblems('Everest@2025')).toEqual([]);
  });

  it.each([
    ['Ev@2025', 'Password must contain at least 8 characters'],
    ['EVEREST@2025', 'Password must contain one lowercase letter'],
    ['everest@2025', 'Password must contain one uppercase letter'],
    ['Everest@abcd', 'Password must contain one number'],
    ['Everest2025', 'Password must contain one special character (@$!%*?&)'],
  ])('names the one missing item of %s', (password, message) => {
    expect(checkPassword(password)).toBe(message);
  });

  it('joins two missing items with "and"', () => {
    expect(checkPassword('everest2025')).toBe(
      'Password must contain one uppercase letter and one special character (@$!%*?&)',
    );
  });

  it('lists three missing items with commas and a final "and"', () => {
    expect(checkPassword('everest')).toBe(
      'Password must contain at least 8 characters, one uppercase letter, one number and one special character (@$!%*?&)',
    );
    expect(checkPassword('Ev')).toBe(
      'Password must contain at least 8 characters, one number and one special character (@$!%*?&)',
    );
  });

  it('lists every item for an empty password, in the spec order', () => {
    expect(checkPassword('')).toBe(
      'Password must contain at least 8 characters, one lowercase letter, one uppercase letter, one number and one special character (@$!%*?&)',
    );
  });

  it('counts only @$!%*?& as special characters but allows others alongside', () => {
    expect(checkPassword('Everest#2025')).toBe('Password must contain one special character (@$!%*?&)');
    expect(checkPassword('Ever est#2025&')).toBeNull();
  });
});

describe('joinNaturally', () => {
  it('joins none, one, two and three items', () => {
    expect(joinNaturally([])).toBe('');
    expect(joinNaturally(['a'])).toBe('a');
    expect(joinNaturally(['a', 'b'])).toBe('a and b');
    expect(joinNaturally(['a', 'b', 'c'])).toBe('a, b and c');
  });
});

describe('newPassword schema', () => {
  it('refuses a weak password with the spec message', () => {
    const result = newPassword.safeParse('password');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'Password must contain one uppercase letter, one number and one special character (@$!%*?&)',
    );
  });

  it('keeps surrounding spaces, which are part of the password', () => {
    expect(newPassword.parse(' Everest@2025 ')).toBe(' Everest@2025 ');
  });

  it('refuses a password longer than 128 characters', () => {
    expect(newPassword.safeParse(`Aa1@${'x'.repeat(125)}`).success).toBe(false);
  });
});
