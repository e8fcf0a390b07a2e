import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/**
 * GET /api/admin/geocode?q=: the server asks the geocoder, so the browser needs no third-party
 * origin. A mutation, not a query: it runs when the administrator presses Get Coordinates, and
 * an address that was not found must be asked again after it is corrected.
 */
export function geocode(q: string) {
  return api.call('geocode', { query: { q } });
}

export function useGeocode() {
  return useMutation({ mutationFn: geocode });
}
