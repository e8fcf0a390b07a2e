import { useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, Field, Input, Select, Spinner } from '@fluentui/react-components';
import { createUserBody } from '@everest/core/contract';
import {
  defaultRole,
  fieldMax,
  portalMessages,
  portalSuccess,
  roleLabels,
  assignableRoles,
  userCreatedToastMs,
  type AssignableRole,
} from '@everest/core/domain';
import { useCreateUser } from '../api/create-user';
import { useInvestorProperties } from '../../../lib/admin/api/investor-properties';
import { copyPasswordLabels } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { focusField } from '../../../lib/admin/focus-field';
import { useAdminStyles } from '../../../components/admin/admin-styles';

interface CreateUserForm {
  name: string;
  entity: string;
  email: string;
  role: AssignableRole;
  password: string;
  properties: string[];
  sendWelcomeEmail: boolean;
}

const emptyForm: CreateUserForm = {
  name: '',
  entity: '',
  email: '',
  role: defaultRole,
  password: '',
  properties: [],
  sendWelcomeEmail: false,
};

type FieldName = 'name' | 'entity' | 'email' | 'password' | 'role' | 'properties';
const fieldOrder: FieldName[] = ['name', 'entity', 'email', 'role', 'password', 'properties'];

/** The contract's own rules, checked before sending: each message under its field. */
export function createUserErrors(form: CreateUserForm): Partial<Record<FieldName, string>> {
  const parsed = createUserBody.safeParse(form);
  if (parsed.success) return {};
  const errors: Partial<Record<FieldName, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (fieldOrder as string[]).includes(field)) {
      errors[field as FieldName] ??= issue.message;
    }
  }
  return errors;
}

/** Spec section 5, create user: full name or entity, and e-mail; the role defaults to Investor. */
export function CreateUserForm() {
  const styles = useAdminStyles();
  const create = useCreateUser();
  const properties = useInvestorProperties();
  const [form, setForm] = useState<CreateUserForm>(emptyForm);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const set = <K extends keyof CreateUserForm>(key: K, value: CreateUserForm[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    if (errors[key as FieldName]) setErrors(({ [key as FieldName]: _, ...rest }) => rest);
  };

  const toggleProperty = (name: string, checked: boolean) =>
    set('properties', checked ? [...form.properties, name] : form.properties.filter((p) => p !== name));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const found = createUserErrors(form);
    // "Full name or entity": one message, under the name field, says both.
    setErrors(found);
    const first = fieldOrder.find((f) => found[f]);
    if (first) {
      focusField(formRef.current, first);
      return;
    }
    create.mutate(form, {
      onSuccess: (answer) => {
        const { password, user } = answer;
        notifySuccess(
          portalSuccess.userCreated,
          password ? `${user.email} can sign in with the password ${password}` : `${user.email} can sign in with the password you set.`,
          {
            durationMs: userCreatedToastMs,
            ...(password
              ? { action: { ...copyPasswordLabels, run: () => navigator.clipboard.writeText(password) } }
              : {}),
          },
        );
        setForm(emptyForm);
        setErrors({});
        focusField(formRef.current, 'name');
      },
      onError: (error) => notifyFailure(portalMessages.userCreateFailed, error),
    });
  };

  return (
    <section className={styles.section} aria-labelledby="create-user-title">
      <h3 id="create-user-title" className={styles.sectionTitle}>
        Create User
      </h3>
      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate aria-labelledby="create-user-title">
        <div className={styles.fieldGrid}>
          <Field label="Full name" validationMessage={errors.name} hint="Or an entity below">
            <Input
              name="name"
              autoComplete="off"
              maxLength={fieldMax.fullName}
              value={form.name}
              onChange={(_, data) => set('name', data.value)}
            />
          </Field>
          <Field label="Entity / Organization" validationMessage={errors.entity}>
            <Input
              name="entity"
              autoComplete="off"
              maxLength={fieldMax.entity}
              value={form.entity}
              onChange={(_, data) => set('entity', data.value)}
            />
          </Field>
          <Field label="Email" required validationMessage={errors.email}>
            <Input
              type="email"
              name="email"
              autoComplete="off"
              maxLength={fieldMax.email}
              value={form.email}
              onChange={(_, data) => set('email', data.value)}
            />
          </Field>
          <Field label="Role" validationMessage={errors.role}>
            <Select
              name="role"
              value={form.role}
              onChange={(_, data) => set('role', assignableRoles.find((r) => r === data.value) ?? defaultRole)}
            >
              {assignableRoles.map((r) => (
                <option key={r} value={r}>
                  {roleLabels[r]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Password" validationMessage={errors.password} hint="Leave blank to generate one">
            <Input
              type="password"
              name="password"
              autoComplete="new-password"
              maxLength={fieldMax.password}
              value={form.password}
              onChange={(_, data) => set('password', data.value)}
            />
          </Field>
        </div>
        <fieldset className={styles.fieldset} name="properties" tabIndex={-1}>
          <legend className={styles.legend}>Property access</legend>
          {properties.isPending && <Spinner size="tiny" label="Loading properties..." />}
          {properties.isError && <p className={styles.alert}>The properties could not be loaded.</p>}
          {properties.data && properties.data.properties.length === 0 && (
            <p className={styles.muted}>No property is flagged for investor relations yet.</p>
          )}
          {properties.data && properties.data.properties.length > 0 && (
            <div className={styles.checkboxList}>
              {properties.data.properties.map((p) => (
                <Checkbox
                  key={p.id}
                  label={p.name}
                  checked={form.properties.includes(p.name)}
                  onChange={(_, data) => toggleProperty(p.name, data.checked === true)}
                />
              ))}
            </div>
          )}
          {errors.properties && <p className={styles.alert}>{errors.properties}</p>}
        </fieldset>
        <Checkbox
          label="Send welcome email (a link to set a password)"
          checked={form.sendWelcomeEmail}
          onChange={(_, data) => set('sendWelcomeEmail', data.checked === true)}
        />
        <div className={styles.buttons}>
          <Button type="submit" appearance="primary" disabledFocusable={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </section>
  );
}
