import { useState, type ReactNode } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { ToastHost } from '../components/ui/toast-host';
import { createQueryClient } from '../lib/query-client';
import { everestTheme } from '../lib/theme';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <FluentProvider theme={everestTheme}>
      <QueryClientProvider client={queryClient}>
        {children}
        {/* Toasts: call showToast() from lib/toast; the toaster mounts with the first one. */}
        <ToastHost />
      </QueryClientProvider>
    </FluentProvider>
  );
}
