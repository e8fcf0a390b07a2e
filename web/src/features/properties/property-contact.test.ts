import { describe, expect, it } from 'vitest';
import { cityStateZip, telHref, websiteHref } from './property-contact';

describe('cityStateZip', () => {
  it('writes city, state and zip as an address line', () => {
    expect(cityStateZip({ city: 'Phoenix', state: 'AZ', zipCode: '85016' })).toBe('Phoenix, AZ 85016');
  });

  it('leaves out a missing part without stray punctuation', () => {
    expect(cityStateZip({ city: 'Phoenix', state: 'AZ', zipCode: '' })).toBe('Phoenix, AZ');
  });
});

describe('telHref', () => {
  it('dials a US number with its country code', () => {
    expect(telHref('(602) 555-0134')).toBe('tel:+16025550134');
    expect(telHref('1-602-555-0134')).toBe('tel:+16025550134');
  });

  it('keeps an international number as written', () => {
    expect(telHref('+44 20 7946 0958')).toBe('tel:+442079460958');
  });

  it('answers null when there is nothing to dial', () => {
    expect(telHref('call us')).toBeNull();
  });
});

describe('websiteHref', () => {
  it('keeps an http(s) address and adds https to a bare host', () => {
    expect(websiteHref('https://aspen-ridge.example.com')).toBe('https://aspen-ridge.example.com/');
    expect(websiteHref('www.example.com')).toBe('https://www.example.com/');
  });

  it('refuses any other scheme, so that a stored javascript: link never renders', () => {
    expect(websiteHref('javascript:alert(1)')).toBeNull();
    expect(websiteHref('ftp://example.com')).toBeNull();
    expect(websiteHref(null)).toBeNull();
    expect(websiteHref('')).toBeNull();
  });
});
