import { describe, expect, it } from 'vitest';
import type { User } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { changePasswordNotice } from '../components/change-password-form';
import { profileBodyOf } from '../components/manage-profile-card';
import { resetPasswordProblem } from '../components/password-reset-panel';
import { needsProfile } from './portal-session';

const user: User = {
  id: 1,
  firstName: 'Sarah',
  lastName: 'Thompson',
  email: 'investor2@example.com',
  entity: 'Thompson Family Trust',
  streetAddress: '',
  city: '',
  state: '',
  zipCode: '',
  role: 'user',
  isActive: true,
  lastLoginAt: null,
  previousLoginAt: null,
};

describe('change password checks, in the order of spec section 5', () => {
  it('says No Changes when both fields are empty', () => {
    expect(changePasswordNotice('', '')).toEqual({ title: 'No Changes', description: 'Password unchanged.' });
  });

  it('says the new passwords differ before looking at the rules', () => {
    expect(changePasswordNotice('weak', 'other')).toEqual({
      title: portalMessages.newPasswordsDoNotMatch,
      variant: 'destructive',
    });
  });

  it('names the missing requirements under Password Requirements Not Met', () => {
    expect(changePasswordNotice('Everest2026', 'Everest2026')).toEqual({
      title: 'Password Requirements Not Met',
      description: 'Password must contain one special character (@$!%*?&)',
      variant: 'destructive',
    });
    expect(changePasswordNotice('Everest@2026', 'Everest@2026')).toBeNull();
  });
});

describe('reset password checks', () => {
  it('asks for both fields, then the rules, then a match', () => {
    expect(resetPasswordProblem('', 'x')).toBe('Please fill in all fields');
    expect(resetPasswordProblem('everest', 'different')).toMatch(/^Password must contain at least 8 characters/);
    expect(resetPasswordProblem('Everest@2026', 'Everest@2027')).toBe('Passwords do not match');
    expect(resetPasswordProblem('Everest@2026', 'Everest@2026')).toBeNull();
  });
});

describe('profile body', () => {
  it('sends first and last name as typed (issue 35) and the e-mail trimmed', () => {
    const body = profileBodyOf({ ...user, firstName: 'Mary Ann', lastName: 'Smith', email: ' Mary@Example.com ' });
    expect(body).toMatchObject({ firstName: 'Mary Ann', lastName: 'Smith', email: 'Mary@Example.com' });
  });
});

describe('stored session', () => {
  it('is re-fetched when the entity is missing or equals the full name (spec section 4)', () => {
    expect(needsProfile(null)).toBe(true);
    expect(needsProfile(user)).toBe(false);
    expect(needsProfile({ ...user, entity: '' })).toBe(true);
    expect(needsProfile({ ...user, entity: 'Sarah Thompson' })).toBe(true);
  });
});
