import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appEntryUrl, isAppUrl, isExternalLink, navigationAction, resolveAppFile, windowOpenAction } from './navigation-policy';

describe('links that ask for a new window', () => {
  it('downloads a file of the API through the app scheme, where the session is added', () => {
    expect(windowOpenAction('everest://app/api/investor/download/7?type=user', 'https://portal.example.com')).toEqual({
      action: 'download',
      url: 'everest://app/api/investor/download/7?type=user',
    });
  });

  it("opens one of the portal's pages on the server, in the system browser", () => {
    expect(windowOpenAction('everest://app/instructions', 'https://portal.example.com')).toEqual({
      action: 'external',
      url: 'https://portal.example.com/instructions',
    });
  });

  it("opens the portal's pages when the portal runs on this computer over http, and nothing else over http", () => {
    expect(windowOpenAction('everest://app/instructions', 'http://localhost:3000')).toEqual({
      action: 'external',
      url: 'http://localhost:3000/instructions',
    });
    expect(windowOpenAction('http://localhost:3000/instructions', 'http://localhost:3000')).toEqual({
      action: 'external',
      url: 'http://localhost:3000/instructions',
    });
    expect(windowOpenAction('http://[::1]:3000/instructions', 'http://[::1]:3000')).toEqual({
      action: 'external',
      url: 'http://[::1]:3000/instructions',
    });
    // Another port, another host, or a portal address the settings would refuse.
    expect(windowOpenAction('http://localhost:4000/', 'http://localhost:3000')).toEqual({ action: 'deny' });
    expect(windowOpenAction('http://portal.example.com/instructions', 'https://portal.example.com')).toEqual({ action: 'deny' });
    expect(windowOpenAction('everest://app/instructions', 'http://portal.example.com')).toEqual({ action: 'deny' });
    expect(windowOpenAction('http://portal.example.com/x', 'http://portal.example.com')).toEqual({ action: 'deny' });
  });

  it.each(['http://example.com/', 'file:///etc/passwd', 'everest://evil/api/x', 'mailto:a@example.com', 'not a url'])(
    'never hands %j to the system',
    (url) => {
      expect(windowOpenAction(url, 'https://portal.example.com')).toEqual({ action: 'deny' });
    },
  );

  it('hands the system the parsed address, not the raw text of the page', () => {
    expect(windowOpenAction('HTTPS://Example.COM/a\n b', 'https://portal.example.com')).toEqual({ action: 'external', url: 'https://example.com/a%20b' });
    expect(windowOpenAction('HTTP://LOCALHOST:3000/instructions', 'http://localhost:3000')).toEqual({
      action: 'external',
      url: 'http://localhost:3000/instructions',
    });
    expect(windowOpenAction('http://localhost:3000@evil.example/', 'http://localhost:3000')).toEqual({ action: 'deny' });
  });

  it('opens an https link in the system browser', () => {
    expect(windowOpenAction('https://example.com/a', 'http://localhost:3000')).toEqual({ action: 'external', url: 'https://example.com/a' });
  });
});

describe('navigation policy', () => {
  it('lets the window navigate within the built renderer', () => {
    expect(isAppUrl('everest://app/index.html#/users', appEntryUrl)).toBe(true);
    expect(isAppUrl('everest://app/other.html', appEntryUrl)).toBe(true);
  });

  it('lets the window navigate within the dev server only on its own port', () => {
    expect(isAppUrl('http://localhost:5173/index.html', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:3000/', 'http://localhost:5173')).toBe(false);
  });

  it.each([
    'https://portal.example.com/',
    'everest://evil/index.html',
    'file:///etc/passwd',
    'http://app/index.html',
    'javascript:alert(1)',
    'not a url',
  ])('keeps the window from navigating to %j', (url) => {
    expect(isAppUrl(url, appEntryUrl)).toBe(false);
  });

  it('opens https links in the system browser', () => {
    expect(isExternalLink('https://www.example.com/about', 'https://portal.example.com')).toBe(true);
  });

  it.each(['http://www.example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://share/x', 'mailto:a@b.c', ''])(
    'opens no external program for %j',
    (url) => {
      expect(isExternalLink(url, 'https://portal.example.com')).toBe(false);
      expect(isExternalLink(url, 'http://localhost:3000')).toBe(false);
    },
  );
});

describe('navigations, redirects and frames', () => {
  const portal = 'https://portal.example.com';

  it.each(['navigate', 'frame-navigate', 'redirect'] as const)('lets the window %s within the app', (kind) => {
    expect(navigationAction(kind, 'everest://app/index.html#/users', portal)).toEqual({ action: 'allow' });
  });

  it('cancels a main-frame navigation away from the app and hands an https link to the system browser', () => {
    expect(navigationAction('navigate', 'https://www.example.com/about', portal)).toEqual({ action: 'deny', external: 'https://www.example.com/about' });
    expect(navigationAction('navigate', 'http://localhost:3000/instructions', 'http://localhost:3000')).toEqual({
      action: 'deny',
      external: 'http://localhost:3000/instructions',
    });
    expect(navigationAction('navigate', 'file:///etc/passwd', portal)).toEqual({ action: 'deny' });
  });

  it.each(['https://www.example.com/', 'https://portal.example.com/instructions', 'http://localhost:3000/', 'file:///etc/passwd', 'everest://evil/', 'about:blank#x', 'data:text/html,<script>1</script>'])(
    'cancels a redirect to %j and opens nothing',
    (url) => {
      expect(navigationAction('redirect', url, portal)).toEqual({ action: 'deny' });
    },
  );

  it.each(['https://www.example.com/', 'https://portal.example.com/instructions', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])(
    'cancels a frame navigating to %j and opens nothing',
    (url) => {
      expect(navigationAction('frame-navigate', url, portal)).toEqual({ action: 'deny' });
    },
  );

  it('lets the dev server window navigate within the dev server only', () => {
    expect(navigationAction('redirect', 'http://localhost:5173/index.html', portal, 'http://localhost:5173')).toEqual({ action: 'allow' });
    expect(navigationAction('redirect', 'http://localhost:3000/', portal, 'http://localhost:5173')).toEqual({ action: 'deny' });
  });
});

describe('app scheme files', () => {
  const root = join('/opt', 'everest', 'renderer');

  it('serves the entry page for the bare origin and files by their path', () => {
    expect(resolveAppFile(root, 'everest://app/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'everest://app/index.html')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'everest://app/assets/index-abc.js?v=1#x')).toBe(join(root, 'assets', 'index-abc.js'));
    expect(resolveAppFile(root, 'everest://app/assets/my%20logo.png')).toBe(join(root, 'assets', 'my logo.png'));
  });

  it('keeps URL dot segments inside the renderer folder', () => {
    expect(resolveAppFile(root, 'everest://app/../../etc/passwd')).toBe(join(root, 'etc', 'passwd'));
    expect(resolveAppFile(root, 'everest://app/%2e%2e/%2e%2e/etc/passwd')).toBe(join(root, 'etc', 'passwd'));
  });

  it.each([
    'everest://app/..%2F..%2Fetc%2Fpasswd',
    'everest://app/assets/..%2F..%2F..%2Fetc%2Fpasswd',
    'everest://app/assets/%00.js',
    'everest://app/%E0%A4%A',
    'everest://other/index.html',
    'https://app/index.html',
  ])('serves nothing for %j', (url) => {
    expect(resolveAppFile(root, url)).toBeNull();
  });
});
