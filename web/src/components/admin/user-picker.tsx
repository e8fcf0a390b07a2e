import { useState } from 'react';
import { Combobox, Field, Option } from '@fluentui/react-components';
import { displayName } from '@everest/core/domain';
import { useUsers } from '../../lib/admin/api/users';
import { useDebouncedValue } from '../../lib/admin/use-debounced-value';

export interface UserPickerProps {
  /** The chosen user's e-mail, or '' for none. */
  value: string;
  /** With the chosen user's account state, so that a form can warn of a deactivated one. */
  onChange: (email: string, user?: { isActive: boolean }) => void;
  validationMessage?: string;
}

/**
 * A searchable user picker: the typed text searches the users list route (first page, 10
 * matches), so that a firm with hundreds of investors needs no list of all of them here.
 */
export function UserPicker({ value, onChange, validationMessage }: UserPickerProps) {
  const [text, setText] = useState('');
  // Open while searching: typed, pasted or filled text shows its matches at once.
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(text, 250);
  const users = useUsers({ page: 1, search });
  // Only the answer to what is typed now: a stale list would let a quick ArrowDown + Enter pick
  // someone from the previous search.
  const current = search === text && !users.isPlaceholderData;
  const options = current ? (users.data?.users ?? []) : [];
  return (
    <Field
      label="User"
      required
      validationMessage={validationMessage}
      hint={value ? `Chosen: ${value}` : 'Type a name, entity or e-mail'}
    >
      <Combobox
        name="userEmail"
        freeform
        autoComplete="off"
        placeholder="Search users"
        value={text}
        open={open}
        onOpenChange={(_, data) => setOpen(data.open)}
        selectedOptions={value ? [value] : []}
        onInput={(event) => {
          setText(event.currentTarget.value);
          setOpen(true);
          if (value) onChange('');
        }}
        onOptionSelect={(_, data) => {
          // Typing over a choice makes Fluent clear the selection with no option: the typed text
          // stays (taking '' from it emptied the box under the administrator's fingers).
          if (!data.optionValue) {
            onChange('');
            return;
          }
          const user = options.find((u) => u.email === data.optionValue);
          onChange(data.optionValue, user ? { isActive: user.isActive } : undefined);
          setText(data.optionText ?? '');
        }}
      >
        {options.map((user) => {
          const name = displayName(user);
          const label = name && name !== user.email ? `${name} (${user.email})` : user.email;
          return (
            <Option key={user.id} value={user.email} text={label}>
              {label}
            </Option>
          );
        })}
        {options.length === 0 && (
          <Option disabled value="" text="">
            {current && !users.isFetching ? 'No user matches' : 'Searching...'}
          </Option>
        )}
      </Combobox>
    </Field>
  );
}
