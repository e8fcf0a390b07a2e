import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type FormEvent } from 'react';
import { Button, Combobox, Field, Option, Select } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { useAssignProperty } from '../api/assign-property';
import { useInvestorProperties } from '../../../lib/admin/api/investor-properties';
import { useUsers } from '../../../lib/admin/api/users';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { useDebouncedValue } from '../../../lib/admin/use-debounced-value';
import { userLabel } from '../lib/user-rows';
import { useAdminStyles } from '../../../components/admin/admin-styles';

export interface AssignPropertyFormHandle {
  /** Chooses the user (a row's "+ Add") and moves the focus to the property. */
  chooseUser: (user: User) => void;
}

function optionText(user: User): string {
  const label = userLabel(user);
  return label === user.email ? user.email : `${label} (${user.email})`;
}

/** The property-access assignment form (assign-property): a user found by search, and a property. */
export const AssignPropertyForm = forwardRef<AssignPropertyFormHandle>(function AssignPropertyForm(_, ref) {
  const styles = useAdminStyles();
  const assign = useAssignProperty();
  const properties = useInvestorProperties();
  const [query, setQuery] = useState('');
  const [user, setUser] = useState<User | null>(null);
  const [property, setProperty] = useState('');
  const [errors, setErrors] = useState<{ user?: string; property?: string }>({});
  const search = useDebouncedValue(query, 250);
  const matches = useUsers({ page: 1, search });
  const userInput = useRef<HTMLInputElement>(null);
  const propertySelect = useRef<HTMLSelectElement>(null);
  const section = useRef<HTMLElement>(null);

  useImperativeHandle(ref, () => ({
    chooseUser: (chosen) => {
      setUser(chosen);
      setQuery(optionText(chosen));
      setErrors({});
      section.current?.scrollIntoView({ block: 'nearest' });
      propertySelect.current?.focus();
    },
  }));

  // A typed text that no longer names the chosen user un-chooses it.
  useEffect(() => {
    if (user && query !== optionText(user)) setUser(null);
  }, [query, user]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (assign.isPending) return;
    const found = {
      ...(user ? {} : { user: 'Please choose a user from the list.' }),
      ...(property ? {} : { property: 'Please choose a property.' }),
    };
    setErrors(found);
    if (!user) return userInput.current?.focus();
    if (!property) return propertySelect.current?.focus();
    assign.mutate(
      { userId: user.id, property },
      {
        onSuccess: () => {
          notifySuccess(adminSuccess.propertyAssigned, `${userLabel(user)} now has access to ${property}.`);
          setProperty('');
        },
        onError: (error) => notifyFailure(portalMessages.assignmentFailed, error, portalMessages.propertyAssignFailed),
      },
    );
  };

  const options = matches.data?.users ?? [];
  return (
    <section ref={section} className={styles.section} aria-labelledby="assign-property-title">
      <h3 id="assign-property-title" className={styles.sectionTitle}>
        Assign Property Access
      </h3>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="assign-property-title">
        <div className={styles.fieldGrid}>
          <Field label="User" required validationMessage={errors.user} hint="Type a name, entity or e-mail">
            <Combobox
              ref={userInput}
              freeform
              autoComplete="off"
              value={query}
              selectedOptions={user ? [String(user.id)] : []}
              onChange={(event) => setQuery(event.target.value)}
              onOptionSelect={(_, data) => {
                const chosen = options.find((u) => String(u.id) === data.optionValue);
                if (!chosen) return;
                setUser(chosen);
                setQuery(optionText(chosen));
                setErrors(({ user: _user, ...rest }) => rest);
              }}
            >
              {options.map((u) => (
                <Option key={u.id} value={String(u.id)} text={optionText(u)}>
                  {optionText(u)}
                </Option>
              ))}
              {matches.isSuccess && options.length === 0 && (
                <Option disabled value="" text="">
                  No user matches.
                </Option>
              )}
            </Combobox>
          </Field>
          <Field label="Property" required validationMessage={errors.property}>
            <Select
              ref={propertySelect}
              value={property}
              onChange={(_, data) => {
                setProperty(data.value);
                setErrors(({ property: _property, ...rest }) => rest);
              }}
            >
              <option value="">Choose a property</option>
              {properties.data?.properties.map((p) => (
                <option key={p.id} value={p.name}>
                  {p.name}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <div className={styles.buttons}>
          <Button type="submit" appearance="primary" disabledFocusable={assign.isPending}>
            {assign.isPending ? 'Assigning...' : 'Assign Property'}
          </Button>
        </div>
      </form>
    </section>
  );
});
