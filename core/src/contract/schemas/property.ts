import { z } from 'zod';
import { propertyStatuses, propertyTypes } from '../../domain/enums';
import { fieldMax } from '../../domain/limits';
import { coordinateDecimals } from '../../domain/property-map';
import { idOf, optionalText, requiredText, yesNo } from './fields';

/**
 * The formats of a photo's web-sized copies: AVIF, about a third lighter than WebP for the same
 * look, for the browsers that read it, and WebP for the others (Safari before 16).
 */
export const photoFormats = ['image/avif', 'image/webp'] as const;
export type PhotoFormat = (typeof photoFormats)[number];

/** One web-sized copy of a property's photo: its `/media/` path, its width in pixels and its format. */
export const imageVariant = z.object({ url: z.string(), width: z.number().int().positive(), type: z.enum(photoFormats) });
export type ImageVariant = z.infer<typeof imageVariant>;

// A property as the public site reads it (GET /api/properties). Coordinates travel as strings,
// as the spec says, or null when the property has none.
export const publicProperty = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The photo to show where only one fits: the largest web-sized copy when there are copies. */
  image: z.string().nullable(),
  /**
   * The web-sized copies of an uploaded photo, narrowest first in each format, for `srcset`; null for a photo
   * that has none (an older upload, a seeded SVG), which is shown as `image` alone.
   */
  imageVariants: z.array(imageVariant).nullable(),
  type: z.enum(propertyTypes),
  status: z.enum(propertyStatuses),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  latitude: z.string().nullable(),
  longitude: z.string().nullable(),
});
export type PublicProperty = z.infer<typeof publicProperty>;

export const publicPropertyList = z.array(publicProperty);

// ---- Administration of properties ----------------------------------------------------------

/** A property as the admin panel reads it: the public fields plus the investor-relations flag. */
export const adminProperty = publicProperty.extend({ investorRelations: z.boolean() });
export type AdminProperty = z.infer<typeof adminProperty>;

/** GET /api/admin/all-properties and /api/admin/investor-properties (flagged ones only). */
export const adminPropertiesAnswer = z.object({ properties: z.array(adminProperty) });
export type AdminPropertiesAnswer = z.infer<typeof adminPropertiesAnswer>;

export const adminPropertyParams = z.object({ id: idOf('property') });
export type AdminPropertyParams = z.infer<typeof adminPropertyParams>;

/** GET /api/admin/property/:id. */
export const adminPropertyAnswer = z.object({ property: adminProperty });
export type AdminPropertyAnswer = z.infer<typeof adminPropertyAnswer>;

export const createPropertyBody = z.object({
  name: requiredText('Property name', fieldMax.propertyName, 'Please enter a property name.'),
});
export type CreatePropertyBody = z.infer<typeof createPropertyBody>;

/** The answer of create-property and update-property: the saved property, image included. */
export const propertyAnswer = z.object({ message: z.string(), property: adminProperty });
export type PropertyAnswer = z.infer<typeof propertyAnswer>;

/**
 * A coordinate that may arrive as a number or a string; answered as a string with the
 * geocoder's 6 decimals, as the database keeps it.
 */
function coordinate(label: string, limit: number) {
  return z
    .union([z.number(), z.string()], { error: 'Please enter both latitude and longitude.' })
    .transform((value, ctx) => {
      const text = String(value).trim();
      if (text === '') {
        ctx.addIssue({ code: 'custom', message: 'Please enter both latitude and longitude.' });
        return z.NEVER;
      }
      const n = Number(text);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a number, like 34.147785.` });
        return z.NEVER;
      }
      if (Math.abs(n) > limit) {
        ctx.addIssue({ code: 'custom', message: `${label} must be between -${limit} and ${limit}.` });
        return z.NEVER;
      }
      return n.toFixed(coordinateDecimals);
    });
}

/** A website address; 'www.example.com' gets 'https://' in front. '' or null clears it. */
const website = optionalText('Website', fieldMax.website)
  .transform((text) => (text === undefined || text === '' || /^https?:\/\//i.test(text) ? text : `https://${text}`))
  .refine((text) => text === undefined || text === '' || URL.canParse(text), {
    error: 'Please enter a valid website address, like https://example.com.',
  });

/**
 * JSON, or multipart when a new photo is attached (the file field `image`); in multipart the
 * flag and the coordinates arrive as strings. The text field `image` is the photo's current
 * path: absent or unchanged keeps the photo, an empty string removes it.
 */
export const updatePropertyBody = z.object({
  id: idOf('property'),
  name: requiredText('Name', fieldMax.propertyName, 'Please enter the property name.'),
  type: z.enum(propertyTypes, { error: 'Please choose a property type.' }),
  address: requiredText('Address', fieldMax.streetAddress, 'Please enter the street address.'),
  city: requiredText('City', fieldMax.city, 'Please enter the city.'),
  state: requiredText('State', fieldMax.state, 'Please enter the state.'),
  zipCode: optionalText('ZIP code', fieldMax.zipCode),
  phone: optionalText('Phone', fieldMax.phone),
  website,
  status: z.enum(propertyStatuses, { error: 'Please choose a status: active, sold or inactive.' }),
  latitude: coordinate('Latitude', 90),
  longitude: coordinate('Longitude', 180),
  investorRelations: yesNo('Investor relations', true),
  image: optionalText('Image', fieldMax.imagePath),
});
export type UpdatePropertyBody = z.infer<typeof updatePropertyBody>;

export const deletePropertyBody = z.object({ propertyId: idOf('property') });
export type DeletePropertyBody = z.infer<typeof deletePropertyBody>;

/** GET /api/admin/geocode?q=: the server asks the geocoder (GEOCODER_URL) for one address. */
export const geocodeQuery = z.object({
  q: requiredText('Address', fieldMax.geocodeQuery, 'Please enter the address, city and state.'),
});
export type GeocodeQuery = z.infer<typeof geocodeQuery>;

/** The first result, to the geocoder's 6 decimals, as the property's coordinates are kept. */
export const geocodeAnswer = z.object({ latitude: z.string(), longitude: z.string() });
export type GeocodeAnswer = z.infer<typeof geocodeAnswer>;
