import { useState, type ReactNode } from 'react';
import { FluentProvider, Toaster } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../lib/query-client';
import { everestTheme } from '../lib/theme';
import { isToastFocusShortcut, toastLimit, toasterId, toastTimeoutMs } from '../lib/toast';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <FluentProvider theme={everestTheme}>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster
          toasterId={toasterId}
          limit={toastLimit}
          timeout={toastTimeoutMs}
          position="bottom-end"
          pauseOnHover
          pauseOnWindowBlur
          shortcuts={{ focus: isToastFocusShortcut }}
        />
      </QueryClientProvider>
    </FluentProvider>
  );
}
