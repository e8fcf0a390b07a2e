import { lazy, Suspense, useEffect, useState } from 'react';
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

  if (!config) return <Placeholder />;
  if (config.provider === 'altcha') {
    return (
      <Suspense fallback={<Placeholder />}>
        <AltchaCaptcha {...props} challengeUrl={config.challengeUrl ?? '/api/captcha/challenge'} />
      </Suspense>
    );
  }
  return <RecaptchaCaptcha {...props} siteKey={config.siteKey} enterprise={config.provider === 'recaptcha-enterprise'} />;
}
