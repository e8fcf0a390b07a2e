import { propertyGroupOrder } from '@everest/core/domain';
import type { PublicProperty } from '@everest/core/contract';
import { compareText } from '../../../lib/compare-text';

/** Only active properties appear on the home page (spec section 4). */
export const isActive = (property: PublicProperty) => property.status === 'active';

/** How many active properties have one of these types (the Self Storage / Retail card counts two). */
export function activeCount(properties: readonly PublicProperty[], types: readonly string[]): number {
  return properties.filter((p) => isActive(p) && types.some((type) => type === p.type)).length;
}

/**
 * The carousel's slides: the active properties offered as investments (not the headquarters),
 * in the order of the property list's "all" view: residential, self-storage, retail, then
 * mixed-use and other, each by name.
 */
export function carouselProperties(properties: readonly PublicProperty[]): PublicProperty[] {
  const rank = (p: PublicProperty) => propertyGroupOrder.indexOf(p.type);
  return properties
    .filter((p) => isActive(p) && rank(p) >= 0)
    .sort((a, b) => rank(a) - rank(b) || compareText(a.name, b.name, { numeric: true }));
}
