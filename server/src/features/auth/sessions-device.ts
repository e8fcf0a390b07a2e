import Bowser from 'bowser';

// Longer User-Agents are not a browser's; their first bytes name it as well as the rest would.
const maxUserAgentRead = 512;
const maxDeviceName = 100;

/** Bowser's names where people say something shorter. */
const browserNames: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Samsung Internet for Android': 'Samsung Internet',
};

/** A program's own name from the first product of its User-Agent ('curl/8.5.0' → 'curl'), letters and a few signs only. */
function productName(userAgent: string): string {
  const match = /^([A-Za-z][A-Za-z0-9._-]{0,39})/.exec(userAgent.trim());
  return match?.[1] ?? '';
}

/**
 * A short readable name for the device of a session, from its User-Agent: 'Chrome on Windows',
 * 'Safari on iPhone', 'Everest desktop app' (Electron names the app in its User-Agent). The
 * header is the client's to say, so this names, never proves: a thief may call himself Chrome.
 */
export function deviceName(userAgent: string | undefined): string {
  const agent = (userAgent ?? '').slice(0, maxUserAgentRead).replace(/[^\x20-\x7e]/g, '');
  if (agent.trim() === '') return 'Unknown device';
  if (/\bElectron\/\d/.test(agent) && /everest/i.test(agent)) return 'Everest desktop app';
  const { browser, os, platform } = Bowser.parse(agent);
  const browserName = browser.name ? (browserNames[browser.name] ?? browser.name) : '';
  // An iPhone or an iPad says more than 'iOS'.
  const system = platform.vendor === 'Apple' && platform.model ? platform.model : (os.name ?? '');
  const name =
    browserName && system ? `${browserName} on ${system}` : browserName || (system ? `A browser on ${system}` : productName(agent) || 'Unknown device');
  return name.slice(0, maxDeviceName);
}
