import type { PublicProperty } from '@everest/core/contract';
import { propertyGroups } from '../../../lib/property-list';

/** Only active properties appear on the home page (spec section 4). */
export const isActive = (property: PublicProperty) => property.status === 'active';

/** How many active properties have one of these types (the Self Storage / Retail card counts two). */
export function activeCount(properties: readonly PublicProperty[], types: readonly string[]): number {
  return properties.filter((p) => isActive(p) && types.some((type) => type === p.type)).length;
}

/**
 * The carousel's slides: the cards of the property list's "all" view, in its order (the
 * headquarters is no investment and is in neither).
 */
export function carouselProperties(properties: readonly PublicProperty[]): PublicProperty[] {
  return propertyGroups(properties, 'all').flatMap((group) => group.properties);
}
