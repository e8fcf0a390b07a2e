import { useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Link, mergeClasses } from '@fluentui/react-components';
import { enterSecondStepCode } from '@everest/core/contract';
import { checkPassword, passwordMinLength, portalMessages, portalSuccess } from '@everest/core/domain';
import { showToast, type ToastOptions } from '../../../lib/toast';
import { useChangePassword } from '../api/change-password';
import { useCodeAllowed } from '../api/second-step';
import { usePortalSession } from '../lib/portal-session';
import { passwordRulesHint } from './password-reset-panel';
import { usePortalStyles } from './portal-styles';

/**
 * The notice for a new password pair, checked in the order of spec section 5 (change
 * password); null when it may be sent.
 */
export function changePasswordNotice(newPassword: string, confirm: string): ToastOptions | null {
  if (!newPassword && !confirm) return { ...portalMessages.noChanges };
  if (newPassword !== confirm) return { title: portalMessages.newPasswordsDoNotMatch, variant: 'destructive' };
  const rules = checkPassword(newPassword);
  if (rules) return { title: portalMessages.passwordRequirementsNotMet, description: rules, variant: 'destructive' };
  return null;
}

/**
 * Every role, administrators included, confirms the current password, or a current code of its
 * second step (DECISIONS.md, changed 2026-11-27): a session left open must not take the account.
 */
export function ChangePasswordForm() {
  const portal = usePortalStyles();
  const session = usePortalSession();
  const change = useChangePassword();
  const codeAllowed = useCodeAllowed();
  const [withCode, setWithCode] = useState(false);
  const [current, setCurrent] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const currentRef = useRef<HTMLInputElement>(null);
  const usingCode = withCode && codeAllowed;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const notice = changePasswordNotice(newPassword, confirm);
    if (notice) return showToast(notice);
    if (!current.trim()) {
      currentRef.current?.focus();
      return showToast({
        title: portalMessages.changePasswordFailed,
        description: usingCode ? enterSecondStepCode : portalMessages.enterCurrentPassword,
        variant: 'destructive',
      });
    }
    change.mutate(
      usingCode ? { code: current, newPassword } : { currentPassword: current, newPassword },
      {
        onSuccess: (answer) => {
          session.replaceToken(answer.token);
          setCurrent('');
          setNewPassword('');
          setConfirm('');
          showToast(portalSuccess.passwordChanged);
        },
        onError: (error) => {
          if (session.endIfUnauthorized(error)) return;
          setCurrent('');
          showToast({
            title: portalMessages.changePasswordFailed,
            description: error.message === portalMessages.changePasswordFailed ? undefined : error.message,
            variant: 'destructive',
          });
        },
      },
    );
  };

  const switchMethod = () => {
    setWithCode((value) => !value);
    setCurrent('');
    currentRef.current?.focus();
  };

  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="change-password-title">
      <h3 id="change-password-title" className={portal.sectionTitle}>
        Change Password
      </h3>
      <div className={portal.fieldGrid}>
        <div className={mergeClasses(portal.form, portal.wide)}>
          {usingCode ? (
            <Field label="Code from your authenticator app, or a backup code" required>
              <Input
                ref={currentRef}
                name="current-code"
                autoComplete="one-time-code"
                value={current}
                onChange={(_, data) => setCurrent(data.value)}
              />
            </Field>
          ) : (
            <Field label="Current password" required>
              <Input
                ref={currentRef}
                type="password"
                name="current-password"
                autoComplete="current-password"
                value={current}
                onChange={(_, data) => setCurrent(data.value)}
              />
            </Field>
          )}
          {codeAllowed && (
            <div>
              <Link as="button" type="button" onClick={switchMethod}>
                {usingCode ? 'Use my current password instead' : 'Use a code instead of my current password'}
              </Link>
            </div>
          )}
        </div>
        <Field label="New password" hint={passwordRulesHint}>
          <Input
            type="password"
            name="new-password"
            autoComplete="new-password"
            minLength={passwordMinLength}
            value={newPassword}
            onChange={(_, data) => setNewPassword(data.value)}
          />
        </Field>
        <Field label="Confirm new password">
          <Input
            type="password"
            name="confirm-new-password"
            autoComplete="new-password"
            value={confirm}
            onChange={(_, data) => setConfirm(data.value)}
          />
        </Field>
      </div>
      <div className={portal.buttons}>
        <Button type="submit" appearance="primary" disabledFocusable={change.isPending}>
          {change.isPending ? 'Changing...' : 'Update Password'}
        </Button>
      </div>
    </form>
  );
}
