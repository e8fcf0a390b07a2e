import { QueryClient } from '@tanstack/react-query';

// Spec (public site section 4, portal section 9): no refetch on focus, no polling, data
// never goes stale, no retries for queries or mutations.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
