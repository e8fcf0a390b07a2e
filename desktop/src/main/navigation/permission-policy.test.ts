import { describe, expect, it } from 'vitest';
import { permissionGranted } from './permission-policy';

describe('web permissions of the app', () => {
  it("lets the app's own page write to the clipboard (the panel's Copy password)", () => {
    // Electron hands checks an origin (Chromium serialises it with or without a slash) and requests a URL.
    expect(permissionGranted({ permission: 'clipboard-sanitized-write', requestingUrl: 'everest://app' })).toBe(true);
    expect(permissionGranted({ permission: 'clipboard-sanitized-write', requestingUrl: 'everest://app/' })).toBe(true);
    expect(permissionGranted({ permission: 'clipboard-sanitized-write', requestingUrl: 'everest://app/index.html', isMainFrame: true })).toBe(true);
  });

  it.each([
    'media',
    'display-capture',
    'notifications',
    'geolocation',
    'clipboard-read',
    'openExternal',
    'fileSystem',
    'hid',
    'serial',
    'usb',
    'midiSysex',
    'fullscreen',
    'pointerLock',
    'persistent-storage',
    'local-fonts',
    'unknown',
    '',
  ])('refuses %j, even to the app itself', (permission) => {
    expect(permissionGranted({ permission, requestingUrl: 'everest://app/' })).toBe(false);
  });

  it.each(['https://portal.example.com', 'http://localhost:3000', 'everest://evil', 'file:///', 'null', '', 'not a url'])(
    'refuses the clipboard to %j',
    (requestingUrl) => {
      expect(permissionGranted({ permission: 'clipboard-sanitized-write', requestingUrl })).toBe(false);
    },
  );

  it('refuses the clipboard to a frame inside the app', () => {
    expect(permissionGranted({ permission: 'clipboard-sanitized-write', requestingUrl: 'everest://app/index.html', isMainFrame: false })).toBe(false);
  });
});
