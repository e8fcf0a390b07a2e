import { describe, expect, it } from 'vitest';
import { emptyContactForm, validateContactForm, type ContactFormValues } from './contact-validation';

const filled: ContactFormValues = {
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
  subject: 'Partnership interests',
  message: 'I would like to learn more.',
};

const messageOf = (result: ReturnType<typeof validateContactForm>) => (result.ok ? null : result.message);

describe('validateContactForm', () => {
  it('asks for the required fields first, even when the captcha is not done either', () => {
    expect(messageOf(validateContactForm(emptyContactForm, null))).toBe('Please fill in all required fields.');
    expect(messageOf(validateContactForm({ ...filled, subject: '' }, null))).toBe(
      'Please fill in all required fields.',
    );
  });

  it('counts a field of spaces as empty', () => {
    expect(messageOf(validateContactForm({ ...filled, lastName: '   ' }, 'token'))).toBe(
      'Please fill in all required fields.',
    );
  });

  it('asks for the captcha once every field is filled', () => {
    expect(messageOf(validateContactForm(filled, null))).toBe('Please complete the reCAPTCHA verification.');
    expect(messageOf(validateContactForm(filled, ''))).toBe('Please complete the reCAPTCHA verification.');
  });

  it("then applies the contract's rules, as the server will", () => {
    expect(messageOf(validateContactForm({ ...filled, email: 'jane@' }, 'token'))).toBe(
      'Please enter a valid email address.',
    );
  });

  it('answers the body to send, trimmed, with the token', () => {
    const result = validateContactForm({ ...filled, firstName: '  Jane ' }, 'token-1');
    expect(result).toEqual({ ok: true, body: { ...filled, recaptchaToken: 'token-1' } });
  });
});
