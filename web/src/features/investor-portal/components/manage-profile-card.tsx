import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Button,
  Card,
  Divider,
  Field,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Text,
  makeStyles,
} from '@fluentui/react-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { OwnerProof, UpdateProfileAnswer, UpdateProfileBody, User } from '@everest/core/contract';
import { fieldMax, formatDateTime, portalMessages, portalSuccess } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { useCancelEmailChange } from '../api/email-change';
import { profileQueryKey, profileQueryOptions } from '../api/profile';
import { useUpdateProfile } from '../api/update-profile';
import { usePortalSession } from '../lib/portal-session';
import { useCodeAllowed } from '../api/second-step';
import { ChangePasswordForm } from './change-password-form';
import { ConfirmOwnerDialog } from './confirm-owner-dialog';
import { usePortalStyles } from './portal-styles';
import { SessionsSection } from './sessions-section';
import { SharesSection } from './shares-section';
import { TwoStepSection } from './two-step-section';

const useStyles = makeStyles({
  // A long address must wrap on a phone rather than push the bar's text and button out of view.
  pending: { overflowWrap: 'anywhere', minWidth: 0 },
});

type ProfileForm = Record<'firstName' | 'lastName' | 'email' | 'entity' | 'streetAddress' | 'city' | 'state' | 'zipCode', string>;

function formOf(user: User): ProfileForm {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    entity: user.entity,
    streetAddress: user.streetAddress,
    city: user.city,
    state: user.state,
    zipCode: user.zipCode,
  };
}

/** The body to send: first and last name as typed, the e-mail trimmed. */
export function profileBodyOf(form: ProfileForm): UpdateProfileBody {
  return { ...form, email: form.email.trim() };
}

interface TextFieldSpec {
  key: keyof ProfileForm;
  label: string;
  autoComplete: string;
  maxLength: number;
  type?: 'email' | 'text';
  required?: boolean;
  wide?: boolean;
}

const fields: TextFieldSpec[] = [
  { key: 'firstName', label: 'First name', autoComplete: 'given-name', maxLength: fieldMax.name },
  { key: 'lastName', label: 'Last name', autoComplete: 'family-name', maxLength: fieldMax.name },
  { key: 'email', label: 'Email', autoComplete: 'email', maxLength: fieldMax.email, type: 'email', required: true },
  { key: 'entity', label: 'Entity / Organization', autoComplete: 'organization', maxLength: fieldMax.entity },
  { key: 'streetAddress', label: 'Street address', autoComplete: 'street-address', maxLength: fieldMax.streetAddress, wide: true },
  { key: 'city', label: 'City', autoComplete: 'address-level2', maxLength: fieldMax.city },
  { key: 'state', label: 'State', autoComplete: 'address-level1', maxLength: fieldMax.state },
  { key: 'zipCode', label: 'ZIP code', autoComplete: 'postal-code', maxLength: fieldMax.zipCode },
];

/**
 * Manage Profile (spec section 2): the profile form, the Change Password section and the
 * two-step sign-in, left out while the required set-up card shows it. A new e-mail
 * address asks for the current password (or a code) and then waits for the link sent to it,
 * which the card says until it is opened or cancelled. Investors also see their
 * shared access.
 */
export function ManageProfileCard({ user, twoStep = true }: { user: User; twoStep?: boolean }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const session = usePortalSession();
  const queryClient = useQueryClient();
  const update = useUpdateProfile();
  const cancel = useCancelEmailChange();
  const codeAllowed = useCodeAllowed();
  // Asked again whenever the card opens: the change may have been confirmed elsewhere meanwhile.
  const profile = useQuery({ ...profileQueryOptions, refetchOnMount: 'always' });
  const pendingEmail = profile.data?.pendingEmail ?? null;
  const [form, setForm] = useState(() => formOf(user));
  /** The body waiting for the owner's proof, while the dialog asks for it. */
  const [needsProof, setNeedsProof] = useState<UpdateProfileBody | null>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  // Focus goes back to Update Profile once the dialog has gone and the button is enabled again.
  const [focusAsked, setFocusAsked] = useState(0);
  const focusGiven = useRef(0);
  const busy = update.isPending || cancel.isPending;
  useEffect(() => {
    if (focusGiven.current === focusAsked || busy || needsProof) return;
    focusGiven.current = focusAsked;
    submitRef.current?.focus();
  }, [focusAsked, busy, needsProof]);

  const emailBlank = form.email.trim() === '';

  const saved = (answer: UpdateProfileAnswer) => {
    queryClient.setQueryData(profileQueryKey, { user: answer.user, pendingEmail: answer.pendingEmail });
    setForm(formOf(answer.user));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || emailBlank) return;
    const body = profileBodyOf(form);
    if (body.email.toLowerCase() !== user.email) return setNeedsProof(body);
    update.mutate(body, {
      onSuccess: (answer) => {
        saved(answer);
        showToast(portalSuccess.profileUpdated);
      },
      onError: (error) => {
        if (session.endIfUnauthorized(error)) return;
        showToast({ title: portalMessages.profileUpdateFailed, description: error.message, variant: 'destructive' });
      },
    });
  };

  const closeProof = () => {
    setNeedsProof(null);
    setFocusAsked((n) => n + 1);
  };

  const saveWithProof = async (proof: OwnerProof) => {
    if (!needsProof) return;
    const answer = await update.mutateAsync({ ...needsProof, ...proof });
    saved(answer);
    closeProof();
    showToast(portalSuccess.emailChangeRequested(answer.pendingEmail?.email ?? needsProof.email));
  };

  const cancelChange = () => {
    if (cancel.isPending) return;
    cancel.mutate(undefined, {
      onSuccess: (answer) => {
        saved(answer);
        showToast(portalSuccess.emailChangeCancelled);
        setFocusAsked((n) => n + 1);
      },
      onError: (error) => {
        if (session.endIfUnauthorized(error)) return;
        showToast({ title: portalMessages.updateFailed, description: error.message, variant: 'destructive' });
      },
    });
  };

  return (
    <Card id="manage-profile" className={portal.card} aria-labelledby="manage-profile-title">
      <h2 id="manage-profile-title" className={portal.cardTitle}>
        Manage Profile
      </h2>
      <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="manage-profile-title">
        <div className={portal.fieldGrid}>
          {fields.map((f) => (
            <Field
              key={f.key}
              label={f.label}
              required={f.required}
              className={f.wide ? portal.wide : undefined}
              validationMessage={f.key === 'email' && emailBlank ? portalMessages.enterEmail : undefined}
            >
              <Input
                type={f.type ?? 'text'}
                name={f.key}
                autoComplete={f.autoComplete}
                maxLength={f.maxLength}
                value={form[f.key]}
                onChange={(_, data) => setForm((previous) => ({ ...previous, [f.key]: data.value }))}
              />
            </Field>
          ))}
        </div>
        {pendingEmail && (
          <MessageBar intent="info" layout="multiline" className={styles.pending} data-testid="pending-email">
            <MessageBarBody className={styles.pending}>
              <MessageBarTitle>{`Waiting for you to confirm ${pendingEmail.email}: we sent a link.`}</MessageBarTitle>
              {`The link works until ${formatDateTime(pendingEmail.expiresAt)} Pacific Time. Until you open it, you sign in with ${user.email}.`}
            </MessageBarBody>
            <MessageBarActions>
              <Button type="button" onClick={cancelChange} disabledFocusable={cancel.isPending}>
                {cancel.isPending ? 'Cancelling...' : 'Cancel Change'}
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}
        <div className={portal.buttons}>
          <Button ref={submitRef} type="submit" appearance="primary" disabled={update.isPending || emailBlank}>
            {update.isPending ? 'Updating...' : 'Update Profile'}
          </Button>
        </div>
      </form>
      {needsProof && (
        <ConfirmOwnerDialog
          title="Change your email address"
          confirmLabel="Send Link"
          pendingLabel="Sending..."
          codeAllowed={codeAllowed}
          onConfirm={saveWithProof}
          onClose={closeProof}
        >
          <Text>
            {`We will send a link to ${needsProof.email.toLowerCase()}. Your email address changes only once you open it; until then you sign in with ${user.email}, which we tell about the change.`}
          </Text>
        </ConfirmOwnerDialog>
      )}
      <Divider />
      <ChangePasswordForm />
      {twoStep && (
        <>
          <Divider />
          <TwoStepSection />
        </>
      )}
      {/* Investors share; a delegate never shares further, and staff have nothing of their own to share. */}
      {user.role === 'user' && <SharesSection />}
      <SessionsSection />
    </Card>
  );
}
