import 'altcha';
import { useEffect, useRef } from 'react';
import type { CaptchaWidgetProps } from './captcha-props';

interface AltchaCaptchaProps extends CaptchaWidgetProps {
  /** Where the widget fetches a fresh signed challenge (GET /api/captcha/challenge). */
  challengeUrl: string;
}

interface StateChange {
  state: string;
  payload: string | null;
}

/** The detail of the widget's `statechange` event, checked rather than trusted. */
function stateChangeOf(event: Event): StateChange | null {
  if (!(event instanceof CustomEvent)) return null;
  const detail: unknown = event.detail;
  if (typeof detail !== 'object' || detail === null || !('state' in detail) || typeof detail.state !== 'string') {
    return null;
  }
  const payload = 'payload' in detail && typeof detail.payload === 'string' ? detail.payload : null;
  return { state: detail.state, payload };
}

// The widget's own colours follow the page's theme through its CSS custom properties.
const darkColours: Record<string, string> = {
  '--altcha-color-base': '#1f2937',
  '--altcha-color-base-content': '#f9fafb',
  '--altcha-border-color': '#4b5563',
};

/**
 * ALTCHA: the browser solves a small proof of work for a challenge signed by our server, and the
 * payload it yields is the token. Nothing leaves for a third party. The element is created
 * imperatively, after the module above has defined it, so that its listeners are never missed.
 */
export default function AltchaCaptcha({
  challengeUrl,
  onToken,
  onExpired,
  onError,
  resetSignal,
  size,
  theme,
}: AltchaCaptchaProps) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<HTMLElementTagNameMap['altcha-widget'] | null>(null);
  // The latest callbacks, without recreating the widget (and losing its solution) on each render.
  const callbacks = useRef({ onToken, onExpired, onError });
  useEffect(() => {
    callbacks.current = { onToken, onExpired, onError };
  });

  const invisible = size === 'invisible';
  useEffect(() => {
    const host = container.current;
    if (!host) return;
    const element = document.createElement('altcha-widget');
    element.setAttribute('challenge', challengeUrl);
    // Invisible: solved in the background as soon as it loads; otherwise the visitor ticks the box.
    element.setAttribute('auto', invisible ? 'onload' : 'off');
    if (invisible) element.setAttribute('display', 'invisible');
    if (theme === 'dark') for (const [name, value] of Object.entries(darkColours)) element.style.setProperty(name, value);

    const onStateChange = (event: Event) => {
      const change = stateChangeOf(event);
      if (!change) return;
      const { onToken: token, onExpired: expired, onError: failed } = callbacks.current;
      if (change.state === 'verified' && change.payload) {
        token(change.payload);
      } else if (change.state === 'expired') {
        token(null);
        expired?.();
        if (invisible) void element.verify();
      } else if (change.state === 'error') {
        token(null);
        failed?.('The verification could not be completed. Please try again.');
      } else {
        token(null);
      }
    };
    element.addEventListener('statechange', onStateChange);
    host.append(element);
    widget.current = element;
    return () => {
      element.removeEventListener('statechange', onStateChange);
      element.remove();
      widget.current = null;
    };
  }, [challengeUrl, invisible, theme]);

  const lastReset = useRef(resetSignal);
  useEffect(() => {
    if (lastReset.current === resetSignal) return;
    lastReset.current = resetSignal;
    const element = widget.current;
    if (!element) return;
    // A spent token must not be sent twice: forget it, and start over with a fresh challenge.
    element.reset();
    callbacks.current.onToken(null);
    if (invisible) void element.verify();
  }, [resetSignal, invisible]);

  return <div ref={container} data-testid="captcha" />;
}
