/** The props of the captcha widget (spec section 3: the options of the reCAPTCHA widget). */
export interface CaptchaWidgetProps {
  /** The token to send as `recaptchaToken`, or null when there is none (any more). */
  onToken: (token: string | null) => void;
  /** Any change resets the widget, e.g. after a message was sent (its token is spent). */
  resetSignal: number;
  theme?: 'light' | 'dark';
  size?: 'compact' | 'normal' | 'invisible';
  type?: 'image' | 'audio';
  badge?: 'bottomright' | 'bottomleft' | 'inline';
  onExpired?: () => void;
  onError?: (error: string) => void;
}
