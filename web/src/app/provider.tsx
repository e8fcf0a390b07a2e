import type { ReactNode } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { useFieldFocusStyles } from '../components/ui/field-focus';
import { ToastHost } from '../components/ui/toast-host';
import { siteThemes } from '../lib/theme';

// The query client is not here: each lazily loaded part that reads data provides it
// (lib/query-provider.tsx), so that the entry chunk holds no react-query.
export function AppProvider({ children }: { children: ReactNode }) {
  useFieldFocusStyles();
  return (
    <FluentProvider theme={siteThemes().light}>
      {children}
      {/* Toasts: call showToast() from lib/toast; the toaster mounts with the first one. */}
      <ToastHost />
    </FluentProvider>
  );
}
