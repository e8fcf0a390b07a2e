import { describe, expect, it } from 'vitest';
import { asSentence, failureTitle, portalMessages, portalSuccess, publicMessages } from './messages';

describe('message catalogues', () => {
  it('keeps the public texts exactly as the spec writes them', () => {
    expect(publicMessages.contactSuccess).toEqual({
      title: 'Success!',
      description: "Your message has been sent. We'll get back to you soon.",
    });
    expect(publicMessages.contactFailure.fallback).toBe('Failed to send message. Please try again.');
    expect(publicMessages.transactionImageFailed(12)).toEqual({
      title: 'Transaction 12',
      description: 'Document Unavailable',
    });
  });

  it('keeps the portal texts exactly as the spec writes them', () => {
    expect(portalMessages.loginFailed).toBe('Login Failed: Invalid email or password. Please try again.');
    expect(portalMessages.userCreateFailed).toBe(
      'Creation Failed: Failed to create user. Please check if email already exists.',
    );
    expect(portalMessages.manifestMissingFields).toBe(
      'Missing required fields (email, filename, document_category, title)',
    );
    expect(portalMessages.roleChanged('Administrator')).toBe('Your role has been changed to Administrator');
    expect(portalSuccess.loginSuccessful).toBe('Login Successful');
  });
});

describe('failure toasts (issue 35)', () => {
  it("drops 'Please try again.' from a refusal a retry cannot fix, and keeps it where a retry may help", () => {
    const title = portalMessages.userUpdateFailed;
    for (const status of [400, 403, 404, 409, 413, 415]) expect(failureTitle(title, status), String(status)).toBe('Error: Failed to update user.');
    for (const status of [0, 408, 429, 500, 502, 503, undefined]) expect(failureTitle(title, status), String(status)).toBe(title);
    expect(failureTitle(portalMessages.profileUpdateFailed, 409)).toBe(portalMessages.profileUpdateFailed);
  });

  it("keeps only the catalogue's first sentence when the server gave its own reason for a refusal", () => {
    expect(failureTitle(portalMessages.userCreateFailed, 409, true)).toBe('Creation Failed: Failed to create user.');
    expect(failureTitle(portalMessages.userUpdateFailed, 409, true)).toBe('Error: Failed to update user.');
    expect(failureTitle(portalMessages.userCreateFailed, 409)).toBe(portalMessages.userCreateFailed);
    expect(failureTitle(portalMessages.userCreateFailed, 503, true)).toBe(portalMessages.userCreateFailed);
  });

  it('makes a sentence cut from after a title start with a capital', () => {
    expect(asSentence('the geocoding service answered 502.')).toBe('The geocoding service answered 502.');
    expect(asSentence('')).toBe('');
  });
});
