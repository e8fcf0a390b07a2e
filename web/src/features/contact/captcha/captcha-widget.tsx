import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { RecaptchaSiteKeyAnswer } from '@everest/core/contract';
import { publicMessages } from '@everest/core/domain';
import { loadCaptchaConfig } from '../../../lib/captcha/captcha-config';
import type { CaptchaWidgetProps } from './captcha-props';
import { RecaptchaCaptcha } from './recaptcha-captcha';

export type { CaptchaWidgetProps } from './captcha-props';

// The proof-of-work widget is a lazy chunk, so that the home page's entry chunk stays lean.
const AltchaCaptcha = lazy(() => import('./altcha-captcha'));

function Placeholder() {
  return <div role="status">{publicMessages.loadingCaptcha}</div>;
}

/**
 * The room the widget will take, kept from the first paint: the placeholder is one line, and the
 * widget arriving below it moved the Submit button down 54 px under the reader's eyes (a layout
 * shift). reCAPTCHA's boxes are 78 px tall (144 px compact); ALTCHA's is 74.5 px.
 */
const reservedHeight = { normal: '78px', compact: '144px', invisible: undefined };

/**
 * The contact form's captcha, whichever provider the server is configured with: ALTCHA (self-hosted
 * proof of work, the default) or Google reCAPTCHA (standard or enterprise script). It yields the
 * token the contact message carries as `recaptchaToken` through `onToken`, and `null` whenever
 * there is no valid token (expired, failed, reset). Changing `resetSignal` resets it.
 */
export function CaptchaWidget(props: CaptchaWidgetProps) {
  const [config, setConfig] = useState<RecaptchaSiteKeyAnswer | null>(null);

  useEffect(() => {
    let mounted = true;
    loadCaptchaConfig().then(
      (answer) => {
        if (mounted) setConfig(answer);
      },
      // Spec: a failed site-key request is only logged, and the placeholder stays.
      (error: unknown) => console.error('Could not load the captcha configuration.', error),
    );
    return () => {
      mounted = false;
    };
  }, []);

  let widget: ReactNode;
  if (!config) widget = <Placeholder />;
  else if (config.provider === 'altcha') {
    widget = (
      <Suspense fallback={<Placeholder />}>
        <AltchaCaptcha {...props} challengeUrl={config.challengeUrl ?? '/api/captcha/challenge'} />
      </Suspense>
    );
  } else widget = <RecaptchaCaptcha {...props} siteKey={config.siteKey} enterprise={config.provider === 'recaptcha-enterprise'} />;
  return <div style={{ minHeight: reservedHeight[props.size ?? 'normal'] }}>{widget}</div>;
}
