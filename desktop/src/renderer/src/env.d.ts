import type { DesktopApi } from '../../shared/api';

declare global {
  interface Window {
    /** The preload's bridge to the main process (src/preload/index.ts). */
    readonly desktop: DesktopApi;
  }
}
