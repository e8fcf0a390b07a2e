import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Card, Field, Input, Text } from '@fluentui/react-components';
import type { SecondStepRequiredAnswer } from '@everest/core/contract';
import { ApiError } from '@everest/core/client';
import { portalMessages, signInCodeMessages } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { asksForCheck, asksForEmailCode, useLogin } from '../api/login';
import { usePortalSession } from '../lib/portal-session';
import { PasswordReset } from './password-reset-panel';
import { SecondStepSignIn } from './second-step-sign-in';
import { usePortalStyles } from './portal-styles';

interface SignInErrors {
  email?: string;
  password?: string;
  emailCode?: string;
}

/** The 'Investor Portal' card: e-mail and password, and the 'Forgot your password?' panel. */
export function SignInCard({ resetToken }: { resetToken: string | null }) {
  const portal = usePortalStyles();
  const session = usePortalSession();
  // Set while the device check the server asked for is being solved and sent.
  const [checking, setChecking] = useState(false);
  const login = useLogin(setChecking);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<SignInErrors>({});
  // Set when the account is past its guess ceiling: the password goes again with the code e-mailed
  // to the account, and the server's sentence says so (the same whether the password was right).
  const [emailCodeAsked, setEmailCodeAsked] = useState<string | null>(null);
  const [emailCode, setEmailCode] = useState('');
  const emailCodeRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (emailCodeAsked) emailCodeRef.current?.focus();
  }, [emailCodeAsked]);
  // Set when the password was right and the account asks for its second step.
  const [challenge, setChallenge] = useState<SecondStepRequiredAnswer | null>(null);
  // Back from the second step (cancelled or expired): the password field, once it is there again.
  const hadChallenge = useRef(false);
  useEffect(() => {
    if (challenge) hadChallenge.current = true;
    else if (hadChallenge.current) passwordRef.current?.focus();
  }, [challenge]);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (login.isPending) return;
    const next: SignInErrors = {};
    if (!email.trim()) next.email = portalMessages.enterEmail;
    if (!password) next.password = 'Please enter your password.';
    if (emailCodeAsked && !/^\d{6}$/.test(emailCode.replace(/[\s-]/g, ''))) next.emailCode = signInCodeMessages.invalid;
    setErrors(next);
    if (next.email) return emailRef.current?.focus();
    if (next.password) return passwordRef.current?.focus();
    if (next.emailCode) return emailCodeRef.current?.focus();

    login.mutate(
      emailCodeAsked ? { email, password, emailCode } : { email, password },
      {
        onSuccess: (answer) => {
          setEmailCodeAsked(null);
          setEmailCode('');
          if ('mfaRequired' in answer) {
            setPassword('');
            setChallenge(answer);
          } else {
            session.signIn(answer);
          }
        },
        onError: (error) => {
          if (asksForEmailCode(error)) {
            // The password stays: it goes again with the code.
            setEmailCode('');
            setEmailCodeAsked(error.message);
            if (emailCodeAsked) emailCodeRef.current?.focus();
            return;
          }
          setPassword('');
          // A wrong address or password gets the spec's sentence; a lock-out (429), a check that
          // could not be passed (reCAPTCHA, or refused twice) or an outage gets the server's,
          // which says what to do.
          const invalidCredentials =
            error instanceof ApiError && (error.status === 401 || error.status === 400) && !asksForCheck(error);
          showToast(
            invalidCredentials
              ? { title: portalMessages.loginFailed, variant: 'destructive' }
              : { title: 'Login Failed', description: error.message, variant: 'destructive' },
          );
          passwordRef.current?.focus();
        },
      },
    );
  };

  return (
    <Card className={portal.card} aria-labelledby="sign-in-title">
      <h2 id="sign-in-title" className={portal.cardTitle}>
        Investor Portal
      </h2>
      <Text className={portal.muted}>Sign in to see your documents and manage your profile.</Text>
      {challenge ? (
        <SecondStepSignIn
          challenge={challenge}
          onSignedIn={(answer) => session.signIn(answer)}
          onRestart={() => setChallenge(null)}
        />
      ) : (
        <>
          <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="sign-in-title">
            <Field label="Email" required validationMessage={errors.email}>
              <Input
                ref={emailRef}
                type="email"
                name="email"
                autoComplete="username"
                value={email}
                onChange={(_, data) => setEmail(data.value)}
              />
            </Field>
            <Field label="Password" required validationMessage={errors.password}>
              <Input
                ref={passwordRef}
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(_, data) => setPassword(data.value)}
              />
            </Field>
            {emailCodeAsked ? (
              <Field label={signInCodeMessages.label} required validationMessage={errors.emailCode}>
                <Input
                  ref={emailCodeRef}
                  name="emailCode"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={9}
                  value={emailCode}
                  onChange={(_, data) => setEmailCode(data.value)}
                />
              </Field>
            ) : null}
            {/* Always in the page, so that screen readers announce what appears in it. */}
            <div role="status" aria-live="polite">
              {checking ? <Text className={portal.muted}>Checking this device…</Text> : null}
              {emailCodeAsked ? <Text>{emailCodeAsked}</Text> : null}
            </div>
            <div className={portal.buttons}>
              <Button type="submit" appearance="primary" disabledFocusable={login.isPending}>
                {login.isPending ? 'Signing in...' : 'Sign In'}
              </Button>
            </div>
          </form>
          <PasswordReset resetToken={resetToken} onPasswordReset={() => emailRef.current?.focus()} />
        </>
      )}
    </Card>
  );
}
