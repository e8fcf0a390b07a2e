import { useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input } from '@fluentui/react-components';
import { createPropertyBody, type AdminProperty } from '@everest/core/contract';
import { fieldMax, portalMessages } from '@everest/core/domain';
import { useCreateProperty } from '../api/create-property';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { useAdminStyles } from '../../../components/admin/admin-styles';

export interface AddPropertyFormProps {
  /** The new property, to be completed in its editor. */
  onCreated: (property: AdminProperty) => void;
}

/** Add a property by name (spec: properties tab); the rest is filled in its row's editor. */
export function AddPropertyForm({ onCreated }: AddPropertyFormProps) {
  const styles = useAdminStyles();
  const create = useCreateProperty();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const parsed = createPropertyBody.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      input.current?.focus();
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: (answer) => {
        notifySuccess(adminSuccess.propertyCreated, `${answer.property.name} was added. Fill in its details below.`);
        setName('');
        onCreated(answer.property);
      },
      onError: (failure) => notifyFailure(portalMessages.propertyCreateFailed, failure),
    });
  };

  return (
    <section className={styles.section} aria-labelledby="add-property-title">
      <h3 id="add-property-title" className={styles.sectionTitle}>
        Add Property
      </h3>
      <form className={styles.toolbar} onSubmit={submit} noValidate aria-labelledby="add-property-title">
        <Field label="Property name" required validationMessage={error} className={styles.search}>
          <Input
            ref={input}
            name="property-name"
            autoComplete="off"
            maxLength={fieldMax.propertyName}
            value={name}
            onChange={(_, data) => {
              setName(data.value);
              setError(undefined);
            }}
          />
        </Field>
        <Button type="submit" appearance="primary" disabledFocusable={create.isPending}>
          {create.isPending ? 'Adding...' : 'Add Property'}
        </Button>
      </form>
    </section>
  );
}
