import { appEntryUrl, isAppUrl } from './navigation-policy';

/**
 * The one web permission the app's pages get: writing to the clipboard (the panel's "Copy
 * password" after creating a user), and only from the app's own origin in its main frame. No
 * camera, microphone, notifications, location, USB, MIDI, or clipboard reading. The same answer for
 * Electron's permission checks (`navigator.permissions`, and what Chromium asks before a request)
 * and for its requests, so that one never grants what the other refuses.
 */
export const grantedPermissions: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export interface PermissionAsk {
  permission: string;
  /** The origin or URL asking (Electron gives an origin to checks and a URL to requests). */
  requestingUrl: string;
  /** False for a subframe; Electron leaves it unset when it does not know. */
  isMainFrame?: boolean;
}

export function permissionGranted({ permission, requestingUrl, isMainFrame }: PermissionAsk, appUrl: string = appEntryUrl): boolean {
  return grantedPermissions.has(permission) && isMainFrame !== false && isAppUrl(requestingUrl, appUrl);
}
