import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Link, Spinner, Text } from '@fluentui/react-components';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@everest/core/client';
import {
  checkPassword,
  passwordMinLength,
  passwordSpecials,
  portalMessages,
  portalSuccess,
  resetLinkSentToastMs,
} from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { useResetPassword } from '../api/reset-password';
import { useValidateResetToken, validateResetTokenQueryOptions } from '../api/validate-reset-token';
import { usePortalStyles } from './portal-styles';

export const passwordRulesHint = `At least ${passwordMinLength} characters, with a lowercase letter, an uppercase letter, a number and one of ${passwordSpecials}`;

/** The first problem of a new password pair, in the order of spec section 5 (reset). */
export function resetPasswordProblem(password: string, confirm: string): string | null {
  if (!password || !confirm) return portalMessages.fillInAllFields;
  const rules = checkPassword(password);
  if (rules) return rules;
  if (password !== confirm) return portalMessages.passwordsDoNotMatch;
  return null;
}

interface PasswordResetProps {
  /** The token of the reset link the page was opened with, if any. */
  resetToken: string | null;
  /** After a successful reset: the sign-in form takes the focus. */
  onPasswordReset: () => void;
}

/**
 * 'Forgot your password?' and its panel (spec sections 2 and 4): closed, request mode, or, with a
 * valid link, set-new-password mode; an invalid or expired link shows its own state.
 */
export function PasswordReset({ resetToken, onPasswordReset }: PasswordResetProps) {
  const portal = usePortalStyles();
  const panelId = useId();
  const [open, setOpen] = useState(resetToken !== null);
  const [linkToken, setLinkToken] = useState(resetToken);
  const validation = useValidateResetToken(linkToken);

  const validationFailed = validation.isError;
  useEffect(() => {
    if (validationFailed) showToast({ title: portalMessages.resetTokenValidationFailed, variant: 'destructive' });
  }, [validationFailed]);

  let mode: 'request' | 'checking' | 'set-password' | 'invalid' = 'request';
  if (linkToken !== null) {
    if (validation.isPending) mode = 'checking';
    else if (validation.data) mode = validation.data.valid ? 'set-password' : 'invalid';
  }

  const toRequestMode = () => setLinkToken(null);
  const close = () => {
    setLinkToken(null);
    setOpen(false);
  };

  return (
    <>
      <div>
        <Link
          as="button"
          type="button"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => (open ? close() : setOpen(true))}
        >
          Forgot your password?
        </Link>
      </div>
      {open && (
        <section id={panelId} className={portal.panel} aria-label="Password reset">
          {mode === 'checking' && <Spinner size="small" label="Checking your reset link..." />}
          {mode === 'request' && <RequestResetForm onCancel={close} />}
          {mode === 'invalid' && <InvalidLink onRequestNew={toRequestMode} />}
          {mode === 'set-password' && linkToken !== null && (
            <SetPasswordForm
              token={linkToken}
              userName={validation.data?.userName}
              onCancel={toRequestMode}
              onDone={() => {
                close();
                onPasswordReset();
              }}
            />
          )}
        </section>
      )}
    </>
  );
}

function RequestResetForm({ onCancel }: { onCancel: () => void }) {
  const portal = usePortalStyles();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [info, setInfo] = useState('');
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => emailRef.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request.isPending) return;
    if (!email.trim()) {
      setError(portalMessages.enterEmail);
      emailRef.current?.focus();
      return;
    }
    setError(undefined);
    setInfo('');
    request.mutate(
      { email },
      {
        onSuccess: (answer) => {
          setInfo(answer.message);
          showToast({ ...portalSuccess.resetLinkSent, durationMs: resetLinkSentToastMs });
        },
        onError: (failure) => {
          showToast({
            title: portalMessages.resetLinkSendFailed,
            description: failure instanceof ApiError && failure.status === 429 ? failure.message : undefined,
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="reset-request-title">
      <h3 id="reset-request-title" className={portal.sectionTitle}>
        Reset your password
      </h3>
      <Text className={portal.muted}>
        Enter the email address of your account and we will send you a link to choose a new password.
      </Text>
      <Field label="Email" required validationMessage={error}>
        <Input
          ref={emailRef}
          type="email"
          name="reset-email"
          autoComplete="email"
          value={email}
          onChange={(_, data) => setEmail(data.value)}
        />
      </Field>
      <div className={portal.buttons}>
        <Button type="submit" appearance="primary" disabledFocusable={request.isPending}>
          {request.isPending ? 'Sending...' : 'Send Reset Link'}
        </Button>
        <Button
          type="button"
          onClick={() => {
            setEmail('');
            setInfo('');
            onCancel();
          }}
        >
          Cancel
        </Button>
      </div>
      <Text role="status" aria-live="polite">
        {info}
      </Text>
    </form>
  );
}

function InvalidLink({ onRequestNew }: { onRequestNew: () => void }) {
  const portal = usePortalStyles();
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => buttonRef.current?.focus(), []);
  return (
    <div className={portal.form} role="alert">
      <h3 className={portal.sectionTitle}>{portalMessages.invalidResetLink.title}</h3>
      <Text>{portalMessages.invalidResetLink.description}</Text>
      <div className={portal.buttons}>
        <Button ref={buttonRef} appearance="primary" onClick={onRequestNew}>
          Request New Reset Link
        </Button>
      </div>
    </div>
  );
}

interface SetPasswordFormProps {
  token: string;
  userName: string | undefined;
  onCancel: () => void;
  onDone: () => void;
}

function SetPasswordForm({ token, userName, onCancel, onDone }: SetPasswordFormProps) {
  const portal = usePortalStyles();
  const queryClient = useQueryClient();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => passwordRef.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reset.isPending) return;
    const found = resetPasswordProblem(password, confirm);
    setProblem(found);
    if (found) return;
    reset.mutate(
      { token, password, confirmPassword: confirm },
      {
        onSuccess: () => {
          queryClient.removeQueries({ queryKey: validateResetTokenQueryOptions(token).queryKey });
          showToast(portalSuccess.passwordReset);
          onDone();
        },
        onError: (failure) => {
          showToast({ title: portalMessages.updateFailed, description: failure.message, variant: 'destructive' });
          // The link may have been used or have expired meanwhile: ask again, and show that state.
          void queryClient.invalidateQueries({ queryKey: validateResetTokenQueryOptions(token).queryKey });
        },
      },
    );
  };

  const cancel = () => {
    setPassword('');
    setConfirm('');
    onCancel();
  };

  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="reset-set-title">
      <h3 id="reset-set-title" className={portal.sectionTitle}>
        Choose a new password
      </h3>
      {userName && <Text className={portal.muted}>{`For ${userName}.`}</Text>}
      <Field label="New password" required hint={passwordRulesHint}>
        <Input
          ref={passwordRef}
          type="password"
          name="new-password"
          autoComplete="new-password"
          minLength={passwordMinLength}
          value={password}
          onChange={(_, data) => setPassword(data.value)}
        />
      </Field>
      <Field label="Confirm new password" required>
        <Input
          type="password"
          name="confirm-password"
          autoComplete="new-password"
          value={confirm}
          onChange={(_, data) => setConfirm(data.value)}
        />
      </Field>
      <p className={portal.alert} role="alert">
        {problem}
      </p>
      <div className={portal.buttons}>
        <Button type="submit" appearance="primary" disabledFocusable={reset.isPending}>
          {reset.isPending ? 'Updating...' : 'Update Password'}
        </Button>
        <Button type="button" onClick={cancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
