import type { PublicProperty } from '@everest/core/contract';

/** 'Phoenix, AZ 85016': the city, state and zip line of an address. */
export function cityStateZip(property: Pick<PublicProperty, 'city' | 'state' | 'zipCode'>): string {
  const cityState = [property.city, property.state].filter((part) => part.trim() !== '').join(', ');
  return [cityState, property.zipCode].filter((part) => part.trim() !== '').join(' ');
}

/**
 * The tel: address of a phone number as the firm writes it ('(602) 555-0134'): digits only, with
 * the US country code in front of a ten-digit number so that it dials from abroad too. Null when
 * there are no digits to dial.
 */
export function telHref(phone: string): string | null {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits === '') return null;
  if (trimmed.startsWith('+')) return `tel:+${digits}`;
  if (digits.length === 10) return `tel:+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `tel:+${digits}`;
  return `tel:${digits}`;
}

/**
 * A property's website as a link target, or null when it is not an http(s) address: the
 * value comes from the admin panel, and a `javascript:` link must never reach a visitor.
 */
export function websiteHref(website: string | null): string | null {
  if (!website) return null;
  const text = website.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  if (!URL.canParse(withScheme)) return null;
  const url = new URL(withScheme);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
}
