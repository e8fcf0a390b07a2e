import { contactBody, type ContactBody } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';

export const contactFields = ['firstName', 'lastName', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof contactFields)[number];
export type ContactFormValues = Record<ContactField, string>;

export const emptyContactForm: ContactFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  subject: '',
  message: '',
};

export type ContactValidation = { ok: true; body: ContactBody } | { ok: false; message: string };

/**
 * The contact form's checks, in the spec's order (section 5): any empty required field first,
 * then the captcha. What passes both is checked against the contract's schema as the server
 * will check it (a malformed e-mail address, a message over 5000 characters), so that the
 * reader hears about it before the captcha's one-time token is spent.
 */
export function validateContactForm(values: ContactFormValues, token: string | null): ContactValidation {
  if (contactFields.some((field) => values[field].trim() === '')) {
    return { ok: false, message: publicMessages.requiredFieldsEmpty };
  }
  if (!token) return { ok: false, message: publicMessages.captchaNotDone };
  const parsed = contactBody.safeParse({ ...values, recaptchaToken: token });
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? publicMessages.requiredFieldsEmpty };
  }
  return { ok: true, body: parsed.data };
}
