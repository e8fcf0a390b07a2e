import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Field, Input, Select, Switch } from '@fluentui/react-components';
import { editUserBody, type User } from '@everest/core/contract';
import { assignableRoles, fieldMax, portalMessages, roleLabels, type Role } from '@everest/core/domain';
import { useEditUser } from '../api/edit-user';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { userLabel } from '../lib/user-rows';
import { focusField } from '../../../lib/admin/focus-field';
import { RowEditor } from '../../../components/admin/row-editor';
import { UserSecondStep } from './user-second-step';
import { UserSharesSection } from './user-shares-section';

type TextKey = 'firstName' | 'lastName' | 'entity' | 'email' | 'streetAddress' | 'city' | 'state' | 'zipCode';
type UserForm = Record<TextKey, string> & Pick<User, 'role' | 'isActive'>;

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

function formOf(user: User): UserForm {
  const { firstName, lastName, entity, email, streetAddress, city, state, zipCode, role, isActive } = user;
  return { firstName, lastName, entity, email, streetAddress, city, state, zipCode, role, isActive };
}

export interface UserEditorProps {
  user: User;
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
    const body = { userId: user.id, ...form, ...(emailLocked ? { email: undefined } : {}), ...(form.role === 'delegate' ? { role: undefined } : {}) };
    const parsed = editUserBody.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<keyof UserForm, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (typeof key === 'string' && key in form) found[key as keyof UserForm] ??= issue.message;
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
      onError: (error) => notifyFailure(portalMessages.userUpdateFailed, error),
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
      <Switch
        label="Active (can sign in)"
        checked={form.isActive}
        onChange={(_, data) => set('isActive', data.checked)}
      />
    </RowEditor>
  );
}
