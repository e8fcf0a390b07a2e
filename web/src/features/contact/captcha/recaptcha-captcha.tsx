import { useEffect, useRef } from 'react';
import { recaptchaContactAction } from '@everest/core/contract';
import type { CaptchaWidgetProps } from './captcha-props';
import { loadScript } from './load-script';

// The part of Google's reCAPTCHA API this widget uses (explicit rendering).
interface RecaptchaRenderOptions {
  sitekey: string;
  theme?: 'light' | 'dark';
  size?: 'compact' | 'normal' | 'invisible';
  type?: 'image' | 'audio';
  badge?: 'bottomright' | 'bottomleft' | 'inline';
  /** Enterprise only: the action the server expects in the assessment. */
  action?: string;
  callback: (token: string) => void;
  'expired-callback': () => void;
  'error-callback': () => void;
}

interface RecaptchaApi {
  ready: (callback: () => void) => void;
  render: (container: HTMLElement, options: RecaptchaRenderOptions) => number;
  reset: (widgetId?: number) => void;
  execute: (widgetId?: number) => void;
}

declare global {
  interface Window {
    grecaptcha?: RecaptchaApi & { enterprise?: RecaptchaApi };
  }
}

const scripts = {
  standard: 'https://www.google.com/recaptcha/api.js?render=explicit',
  enterprise: 'https://www.google.com/recaptcha/enterprise.js?render=explicit',
};

async function loadRecaptcha(enterprise: boolean): Promise<RecaptchaApi> {
  await loadScript(enterprise ? scripts.enterprise : scripts.standard);
  const api = enterprise ? window.grecaptcha?.enterprise : window.grecaptcha;
  if (!api) throw new Error('The reCAPTCHA script loaded but did not define grecaptcha.');
  await new Promise<void>((resolve) => api.ready(resolve));
  return api;
}

interface RecaptchaCaptchaProps extends CaptchaWidgetProps {
  siteKey: string;
  enterprise: boolean;
}

/** Google reCAPTCHA v2 (checkbox, or invisible), standard or enterprise script, rendered explicitly. */
export function RecaptchaCaptcha({
  siteKey,
  enterprise,
  onToken,
  onExpired,
  onError,
  resetSignal,
  theme,
  size,
  type,
  badge,
}: RecaptchaCaptchaProps) {
  const container = useRef<HTMLDivElement>(null);
  const rendered = useRef<{ api: RecaptchaApi; id: number } | null>(null);
  const callbacks = useRef({ onToken, onExpired, onError });
  useEffect(() => {
    callbacks.current = { onToken, onExpired, onError };
  });

  useEffect(() => {
    let cancelled = false;
    // Google's widget cannot be re-rendered into the same element: each render gets a fresh one.
    const target = document.createElement('div');
    container.current?.append(target);
    loadRecaptcha(enterprise).then(
      (api) => {
        if (cancelled) return;
        const id = api.render(target, {
          sitekey: siteKey,
          theme,
          size,
          type,
          badge,
          ...(enterprise ? { action: recaptchaContactAction } : {}),
          callback: (token) => callbacks.current.onToken(token),
          'expired-callback': () => {
            callbacks.current.onToken(null);
            callbacks.current.onExpired?.();
            // An invisible widget has no box to tick again: ask for a new token at once.
            if (size === 'invisible') api.execute(id);
          },
          'error-callback': () => {
            callbacks.current.onToken(null);
            callbacks.current.onError?.('The reCAPTCHA verification could not be loaded. Please check your connection and try again.');
          },
        });
        rendered.current = { api, id };
        if (size === 'invisible') api.execute(id);
      },
      (error: unknown) => {
        console.error('Could not load reCAPTCHA.', error);
        callbacks.current.onError?.('The reCAPTCHA verification could not be loaded. Please check your connection and try again.');
      },
    );
    return () => {
      cancelled = true;
      rendered.current = null;
      target.remove();
    };
  }, [siteKey, enterprise, theme, size, type, badge]);

  const lastReset = useRef(resetSignal);
  useEffect(() => {
    if (lastReset.current === resetSignal) return;
    lastReset.current = resetSignal;
    const widget = rendered.current;
    callbacks.current.onToken(null);
    if (!widget) return;
    widget.api.reset(widget.id);
    if (size === 'invisible') widget.api.execute(widget.id);
  }, [resetSignal, size]);

  return <div ref={container} data-testid="captcha" />;
}
