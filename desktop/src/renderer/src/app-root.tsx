import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { DesktopShell } from './desktop-shell';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <FluentProvider theme={webLightTheme}>
      <DesktopShell />
    </FluentProvider>
  </StrictMode>,
);
