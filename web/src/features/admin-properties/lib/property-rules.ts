import type { AdminProperty } from '@everest/core/contract';
import type { PropertyStatus, PropertyType } from '@everest/core/domain';
import { maxImageBytes, portalMessages } from '@everest/core/domain';
import type { UpdatePropertyFields } from '../api/update-property';

/** The editor's fields, all as typed (coordinates stay text until saved). */
export interface PropertyForm {
  name: string;
  type: PropertyType;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  phone: string;
  website: string;
  status: PropertyStatus;
  latitude: string;
  longitude: string;
  investorRelations: boolean;
  /** The current photo's path; '' when it has none or the administrator removed it. */
  image: string;
}

export function propertyFormOf(property: AdminProperty): PropertyForm {
  return {
    name: property.name,
    type: property.type,
    address: property.address,
    city: property.city,
    state: property.state,
    zipCode: property.zipCode,
    phone: property.phone ?? '',
    website: property.website ?? '',
    status: property.status,
    latitude: property.latitude ?? '',
    longitude: property.longitude ?? '',
    investorRelations: property.investorRelations,
    image: property.image ?? '',
  };
}

export interface RuleFailure {
  title: string;
  description?: string;
  /** The field to focus so that the administrator can fix it. */
  field: keyof PropertyForm;
}

/** Spec section 5: a photo must be an image and under 10 MB. */
export function checkImage(file: File): Omit<RuleFailure, 'field'> | null {
  if (!file.type.startsWith('image/')) {
    return { title: portalMessages.invalidFileType, description: `${file.name} is not an image.` };
  }
  if (file.size > maxImageBytes) return { title: portalMessages.imageTooLarge };
  return null;
}

const required: { field: keyof PropertyForm; label: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'type', label: 'Type' },
  { field: 'address', label: 'Address' },
  { field: 'city', label: 'City' },
  { field: 'state', label: 'State' },
];

function coordinateProblem(text: string, label: string, limit: number): string | null {
  const n = Number(text.trim());
  if (!Number.isFinite(n)) return `${label} must be a number, like 34.147785.`;
  if (Math.abs(n) > limit) return `${label} must be between -${limit} and ${limit}.`;
  return null;
}

/**
 * The spec's property save checks, in its order: required fields, coordinates present,
 * coordinates numeric (and on the globe, as the server checks too), then the photo.
 */
export function checkPropertySave(form: PropertyForm, image: File | null): RuleFailure | null {
  const missing = required.filter(({ field }) => String(form[field]).trim() === '');
  const [firstMissing] = missing;
  if (firstMissing) {
    return {
      title: portalMessages.missingRequiredFields,
      description: `Please fill in: ${missing.map((m) => m.label).join(', ')}.`,
      field: firstMissing.field,
    };
  }
  if (form.latitude.trim() === '' || form.longitude.trim() === '') {
    return {
      title: portalMessages.missingCoordinates,
      description: 'Enter latitude and longitude, or use Get Coordinates.',
      field: form.latitude.trim() === '' ? 'latitude' : 'longitude',
    };
  }
  const latitude = coordinateProblem(form.latitude, 'Latitude', 90);
  if (latitude) return { title: portalMessages.invalidCoordinates, description: latitude, field: 'latitude' };
  const longitude = coordinateProblem(form.longitude, 'Longitude', 180);
  if (longitude) return { title: portalMessages.invalidCoordinates, description: longitude, field: 'longitude' };
  if (image) {
    const problem = checkImage(image);
    if (problem) return { ...problem, field: 'image' };
  }
  return null;
}

/** Spec section 5: Get Coordinates needs the address, city and state. */
export function geocodeQueryOf(form: PropertyForm): string | null {
  const parts = [form.address, form.city, form.state].map((p) => p.trim());
  if (parts.some((p) => p === '')) return null;
  const zip = form.zipCode.trim();
  return `${parts.join(', ')}${zip ? ` ${zip}` : ''}`;
}

/** The JSON fields of update-property for a checked form. */
export function updateFieldsOf(id: number, form: PropertyForm): UpdatePropertyFields {
  return {
    id,
    name: form.name.trim(),
    type: form.type,
    address: form.address.trim(),
    city: form.city.trim(),
    state: form.state.trim(),
    zipCode: form.zipCode.trim(),
    phone: form.phone.trim(),
    website: form.website.trim(),
    status: form.status,
    latitude: form.latitude.trim(),
    longitude: form.longitude.trim(),
    investorRelations: form.investorRelations,
    image: form.image,
  };
}
