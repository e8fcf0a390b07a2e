import { describe, expect, it } from 'vitest';
import { maxImageBytes, portalMessages } from '@everest/core/domain';
import { checkImage, checkPropertySave, geocodeQueryOf, type PropertyForm } from './property-rules';

const complete: PropertyForm = {
  name: 'Oak Terrace',
  type: 'residential',
  address: '100 Main St',
  city: 'Pasadena',
  state: 'CA',
  zipCode: '91101',
  phone: '',
  website: '',
  status: 'active',
  latitude: '34.147785',
  longitude: '-118.144516',
  investorRelations: true,
  image: '',
};

const file = (name: string, type: string, size: number) => {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('property save checks, in the order and with the words of the spec', () => {
  it('accepts a complete property', () => {
    expect(checkPropertySave(complete, null)).toBeNull();
  });

  it('asks for the required fields first, naming the missing ones and focusing the first', () => {
    const failure = checkPropertySave({ ...complete, address: ' ', state: '', latitude: '' }, null);
    expect(failure).toMatchObject({ title: portalMessages.missingRequiredFields, field: 'address' });
    expect(failure?.description).toBe('Please fill in: Address, State.');
  });

  it('then asks for both coordinates', () => {
    expect(checkPropertySave({ ...complete, longitude: '' }, null)).toMatchObject({
      title: portalMessages.missingCoordinates,
      field: 'longitude',
    });
  });

  it('refuses coordinates that are not numbers or not on the globe', () => {
    expect(checkPropertySave({ ...complete, latitude: '34,1' }, null)).toMatchObject({
      title: portalMessages.invalidCoordinates,
      field: 'latitude',
    });
    expect(checkPropertySave({ ...complete, longitude: '-181' }, null)).toMatchObject({
      title: portalMessages.invalidCoordinates,
      field: 'longitude',
    });
  });

  it('refuses a photo that is not an image, or 10 MB or more', () => {
    expect(checkPropertySave(complete, file('photo.png.exe', 'application/x-msdownload', 10))?.title).toBe(
      portalMessages.invalidFileType,
    );
    expect(checkImage(file('big.jpg', 'image/jpeg', maxImageBytes + 1))?.title).toBe(portalMessages.imageTooLarge);
    expect(checkImage(file('ok.jpg', 'image/jpeg', maxImageBytes - 1))).toBeNull();
  });
});

describe('Get Coordinates', () => {
  it('needs the address, city and state, and sends the ZIP code when there is one', () => {
    expect(geocodeQueryOf({ ...complete, city: '' })).toBeNull();
    expect(geocodeQueryOf(complete)).toBe('100 Main St, Pasadena, CA 91101');
    expect(geocodeQueryOf({ ...complete, zipCode: '' })).toBe('100 Main St, Pasadena, CA');
  });
});
