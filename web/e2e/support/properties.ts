import { expect, type APIRequestContext } from '@playwright/test';
import { publicPropertyList, type PublicProperty } from '@everest/core/contract';

/** GET /api/properties as the pages read it, checked against the contract: the data the tests expect from. */
export async function fetchProperties(request: APIRequestContext): Promise<PublicProperty[]> {
  const response = await request.get('/api/properties');
  expect(response.ok()).toBe(true);
  return publicPropertyList.parse(await response.json());
}
