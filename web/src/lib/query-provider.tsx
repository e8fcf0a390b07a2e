import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { pageData, propertiesQueryKey } from './page-data';
import { createQueryClient } from './query-client';

// One client for the visit, made when the first part of the app that reads data loads. That
// part provides it (QueryProvider at its root) instead of the app's shell: the home page's first
// screen reads no data, so react-query stays out of the entry chunk (25 kB, 8 kB gzip).
export const queryClient = createQueryClient();

// The property list the server rendered the page with (embedded in its HTML): hydration renders
// from it, and no page of the visit asks for it again (the data never goes stale, spec section 4).
const embeddedProperties = pageData().properties;
if (embeddedProperties) queryClient.setQueryData(propertiesQueryKey, embeddedProperties);

/** Around each lazily loaded part that uses queries or mutations: a page, or a home section. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
