import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field, Input, Select, Switch, Textarea } from '@fluentui/react-components';
import { editUserBody, type AdminUser, type User } from '@everest/core/contract';
import { ApiError } from '@everest/core/client';
import { assignableRoles, fieldMax, maxAddedIdentifiers, portalMessages, roleLabels, type Role } from '@everest/core/domain';
import { useEditUser } from '../api/edit-user';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { identifierLines, identifierRefusal, sameIdentifiers } from '../lib/identifiers';
import { userLabel } from '../lib/user-rows';
import { focusField } from '../../../lib/admin/focus-field';
import { RowEditor } from '../../../components/admin/row-editor';
import { UserSecondStep } from './user-second-step';
import { UserSharesSection } from './user-shares-section';

type TextKey = 'firstName' | 'lastName' | 'entity' | 'email' | 'streetAddress' | 'city' | 'state' | 'zipCode';
type UserForm = Record<TextKey, string> & Pick<User, 'role' | 'isActive'> & { identifiers: string };

const textFields: { key: TextKey; label: string; maxLength: number; type?: 'email' }[] = [
  { key: 'firstName', label: 'First name', maxLength: fieldMax.name },
  { key: 'lastName', label: 'Last name', maxLength: fieldMax.name },
  { key: 'entity', label: 'Entity / Organization', maxLength: fieldMax.entity },
  { key: 'email', label: 'Email', maxLength: fieldMax.email, type: 'email' },
  { key: 'streetAddress', label: 'Street address', maxLength: fieldMax.streetAddress },
  { key: 'city', label: 'City', maxLength: fieldMax.city },
  { key: 'state', label: 'State', maxLength: fieldMax.state },
  { key: 'zipCode', label: 'ZIP code', maxLength: fieldMax.zipCode },
];

function formOf(user: AdminUser): UserForm {
  const { firstName, lastName, entity, email, streetAddress, city, state, zipCode, role, isActive } = user;
  return { firstName, lastName, entity, email, streetAddress, city, state, zipCode, role, isActive, identifiers: user.identifiers.join('\n') };
}

export const identifiersHint =
  'One per line, as the K-1 prints it: for example “Smith Family Trust dtd 3/1/2001”, or the last four digits of the partner’s TIN (XXX-XX-1234). The full name and entity identify the investor already.';

export interface UserEditorProps {
  user: AdminUser;
  /** The e-mail cannot be changed here (the signed-in administrator's own row). */
  emailLocked: boolean;
  /**
   * Closed, saved or not; `saved` is the user as the server now has it, and `session` the new
   * session of an administrator who changed their own role (editUserAnswer).
   */
  onClose: (saved?: User, session?: string) => void;
}

/** Inline edit of a user's row (spec: user edit). The first field takes the focus. */
export function UserEditor({ user, emailLocked, onClose }: UserEditorProps) {
  const roleChoices: readonly Role[] = user.role === 'delegate' ? [...assignableRoles, 'delegate'] : assignableRoles;
  const edit = useEditUser();
  const [form, setForm] = useState(() => formOf(user));
  const [errors, setErrors] = useState<Partial<Record<keyof UserForm, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = `edit-user-${user.id}`;

  useEffect(() => focusField(formRef.current, 'firstName'), []);

  const set = <K extends keyof UserForm>(key: K, value: UserForm[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (edit.isPending) return;
    // First and last name are sent as typed: "Olivia Rose" / "Brennan" stays so.
    // 'delegate' comes only from a share; a delegate's row saves its other fields and keeps it.
    // The identifiers go only when the list changed: an edit of an address never re-checks them.
    const lines = identifierLines(form.identifiers);
    const { identifiers: _typed, ...fields } = form;
    const body = {
      userId: user.id,
      ...fields,
      ...(emailLocked ? { email: undefined } : {}),
      ...(form.role === 'delegate' ? { role: undefined } : {}),
      ...(sameIdentifiers(lines, user.identifiers) ? {} : { identifiers: lines }),
    };
    const parsed = editUserBody.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<keyof UserForm, string>> = {};
      for (const issue of parsed.error.issues) {
        const [key, index] = issue.path;
        if (key === 'identifiers' && typeof index === 'number') found.identifiers ??= `Line ${index + 1} (“${lines[index]}”): ${issue.message}`;
        else if (typeof key === 'string' && key in form) found[key as keyof UserForm] ??= issue.message;
      }
      setErrors(found);
      const first = (Object.keys(form) as (keyof UserForm)[]).find((k) => found[k]);
      if (first) focusField(formRef.current, first);
      return;
    }
    edit.mutate(parsed.data, {
      onSuccess: (answer) => {
        notifySuccess(adminSuccess.userUpdated, `${userLabel(answer.user)} was saved.`);
        onClose(answer.user, answer.token);
      },
      onError: (error) => {
        // A refused identifier (or a name another account has as one) is said at its field too,
        // which takes the focus: the toast goes, the field stays.
        const refused = error instanceof ApiError && error.status === 409 ? identifierRefusal(error.message, parsed.data) : null;
        if (refused) {
          setErrors({ [refused]: error.message });
          focusField(formRef.current, refused);
        }
        notifyFailure(portalMessages.userUpdateFailed, error);
      },
    });
  };

  return (
    <RowEditor
      formRef={formRef}
      titleId={titleId}
      title={`Edit ${userLabel(user)}`}
      pending={edit.isPending}
      onSubmit={submit}
      onClose={onClose}
      after={
        <>
          <UserSecondStep userId={user.id} label={userLabel(user)} />
          <UserSharesSection userId={user.id} label={userLabel(user)} />
        </>
      }
    >
      {textFields.map((f) => {
        const locked = f.key === 'email' && emailLocked;
        return (
          <Field
            key={f.key}
            label={f.label}
            required={f.key === 'email'}
            validationMessage={errors[f.key]}
            hint={locked ? 'Your own e-mail is changed in Manage Profile.' : undefined}
          >
            <Input
              type={f.type ?? 'text'}
              name={f.key}
              autoComplete="off"
              maxLength={f.maxLength}
              value={form[f.key]}
              readOnly={locked}
              onChange={(_, data) => set(f.key, data.value)}
            />
          </Field>
        );
      })}
      <Field label="Role" validationMessage={errors.role}>
        <Select
          name="role"
          value={form.role}
          onChange={(_, data) => set('role', roleChoices.find((r) => r === data.value) ?? form.role)}
        >
          {roleChoices.map((r) => (
            <option key={r} value={r}>
              {roleLabels[r]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Identifiers" validationMessage={errors.identifiers} hint={identifiersHint}>
        <Textarea
          name="identifiers"
          resize="vertical"
          rows={Math.min(Math.max(form.identifiers.split('\n').length, 2), 6)}
          value={form.identifiers}
          maxLength={(fieldMax.identifier + 1) * maxAddedIdentifiers}
          onChange={(_, data) => set('identifiers', data.value)}
        />
      </Field>
      <Switch
        label="Active (can sign in)"
        checked={form.isActive}
        onChange={(_, data) => set('isActive', data.checked)}
      />
    </RowEditor>
  );
}
