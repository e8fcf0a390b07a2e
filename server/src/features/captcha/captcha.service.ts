import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { AltchaCaptcha } from './altcha-captcha';
import type { CaptchaProvider } from './captcha-provider';
import { RecaptchaCaptcha, RecaptchaEnterpriseCaptcha } from './recaptcha-captcha';

/**
 * The provider CAPTCHA_PROVIDER names. The config module has already refused a reCAPTCHA
 * provider without its keys, so a missing key here is a programming error.
 */
export function createCaptchaProvider(config: Config, logger: Logger): CaptchaProvider {
  const { captcha } = config;
  const expectedHostname = new URL(config.publicUrl).hostname;
  const required = (value: string | undefined, name: string): string => {
    if (!value) throw new Error(`${name} is required for CAPTCHA_PROVIDER=${captcha.provider}.`);
    return value;
  };
  switch (captcha.provider) {
    case 'altcha':
      return new AltchaCaptcha({ hmacKey: captcha.altchaHmacKey, complexity: captcha.altchaComplexity });
    case 'recaptcha':
      return new RecaptchaCaptcha({
        siteKey: required(captcha.recaptchaSiteKey, 'RECAPTCHA_SITE_KEY'),
        secretKey: required(captcha.recaptchaSecretKey, 'RECAPTCHA_SECRET_KEY'),
        verifyUrl: captcha.recaptchaVerifyUrl,
        expectedHostname,
        logger,
      });
    case 'recaptcha-enterprise':
      return new RecaptchaEnterpriseCaptcha({
        siteKey: required(captcha.recaptchaSiteKey, 'RECAPTCHA_SITE_KEY'),
        projectId: required(captcha.recaptchaProjectId, 'RECAPTCHA_PROJECT_ID'),
        apiKey: required(captcha.recaptchaApiKey, 'RECAPTCHA_API_KEY'),
        apiUrl: captcha.recaptchaEnterpriseUrl,
        expectedHostname,
        logger,
      });
  }
}
