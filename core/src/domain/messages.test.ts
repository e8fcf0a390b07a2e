import { describe, expect, it } from 'vitest';
import { portalMessages, portalSuccess, publicMessages } from './messages';

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
