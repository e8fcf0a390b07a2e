import type { PublicProperty } from '@everest/core/contract';
import { propertyGroups } from '../../../lib/property-list';

/**
 * The carousel's slides: the cards of the property list's "all" view, in its order (the
 * headquarters is no investment and is in neither).
 */
export function carouselProperties(properties: readonly PublicProperty[]): PublicProperty[] {
  return propertyGroups(properties, 'all').flatMap((group) => group.properties);
}
