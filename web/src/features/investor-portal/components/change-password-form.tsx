import { useState, type FormEvent } from 'react';
import { Button, Field, Input } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { checkPassword, passwordMinLength, portalMessages, portalSuccess } from '@everest/core/domain';
import { showToast, type ToastOptions } from '../../../lib/toast';
import { useChangePassword } from '../api/change-password';
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
 * Investors and employees confirm their current password; administrators may leave it out
 * (DECISIONS.md), so they get no such field and the server is sent an empty one.
 */
export function ChangePasswordForm({ user }: { user: User }) {
  const portal = usePortalStyles();
  const session = usePortalSession();
  const change = useChangePassword();
  const needsCurrent = user.role !== 'administrator';
  const [current, setCurrent] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    const notice = changePasswordNotice(newPassword, confirm);
    if (notice) return showToast(notice);
    if (needsCurrent && !current) {
      return showToast({ title: portalMessages.changePasswordFailed, description: portalMessages.enterCurrentPassword, variant: 'destructive' });
    }
    change.mutate(
      { currentPassword: needsCurrent ? current : '', newPassword },
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

  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="change-password-title">
      <h3 id="change-password-title" className={portal.sectionTitle}>
        Change Password
      </h3>
      <div className={portal.fieldGrid}>
        {needsCurrent && (
          <Field label="Current password" required className={portal.wide}>
            <Input
              type="password"
              name="current-password"
              autoComplete="current-password"
              value={current}
              onChange={(_, data) => setCurrent(data.value)}
            />
          </Field>
        )}
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
