import { useState, type FormEvent } from 'react';
import { Button, Card, Divider, Field, Input } from '@fluentui/react-components';
import type { UpdateProfileBody, User } from '@everest/core/contract';
import { fieldMax, joinFullName, portalMessages, portalSuccess, splitFullName } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { useUpdateProfile } from '../api/update-profile';
import { usePortalSession } from '../lib/portal-session';
import { ChangePasswordForm } from './change-password-form';
import { usePortalStyles } from './portal-styles';
import { SessionsSection } from './sessions-section';
import { TwoStepSection } from './two-step-section';

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

/**
 * The body to send. The spec holds first and last name as one full name split at the first
 * space, so the two fields are joined and split again: what is sent is what will be shown.
 */
export function profileBodyOf(form: ProfileForm): UpdateProfileBody {
  const { firstName, lastName } = splitFullName(joinFullName(form.firstName, form.lastName));
  return { ...form, firstName, lastName, email: form.email.trim() };
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
 * two-step sign-in (issue 21), left out while the required set-up card shows it.
 */
export function ManageProfileCard({ user, twoStep = true }: { user: User; twoStep?: boolean }) {
  const portal = usePortalStyles();
  const session = usePortalSession();
  const update = useUpdateProfile();
  const [form, setForm] = useState(() => formOf(user));

  const emailBlank = form.email.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || emailBlank) return;
    update.mutate(profileBodyOf(form), {
      onSuccess: (answer) => {
        session.setUser(answer.user);
        setForm(formOf(answer.user));
        showToast(portalSuccess.profileUpdated);
      },
      onError: (error) => {
        if (session.endIfUnauthorized(error)) return;
        showToast({ title: portalMessages.profileUpdateFailed, description: error.message, variant: 'destructive' });
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
        <div className={portal.buttons}>
          <Button type="submit" appearance="primary" disabled={update.isPending || emailBlank}>
            {update.isPending ? 'Updating...' : 'Update Profile'}
          </Button>
        </div>
      </form>
      <Divider />
      <ChangePasswordForm user={user} />
      {twoStep && (
        <>
          <Divider />
          <TwoStepSection />
        </>
      )}
      <SessionsSection />
    </Card>
  );
}
