import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { createShareBody, personalScopes, propertyScopes } from '@everest/core/contract';
import { documentCategories, documentCategoryLabels, fieldMax, type DocumentCategory } from '@everest/core/domain';
import { firmToday } from '../../../lib/share-words';
import { usePortalStyles } from './portal-styles';
import { formOf, shareBodyOf, type FormKey, type ShareDraft, type ShareForm } from '../lib/share-form';

const useStyles = makeStyles({
  // The form is long: on a phone the dialog scrolls inside the screen, its buttons last.
  surface: { maxHeight: '100dvh', overflowY: 'auto' },
  choices: {
    display: 'flex',
    flexDirection: 'column',
    marginLeft: tokens.spacingHorizontalXXL,
    '@media (max-width: 480px)': { marginLeft: tokens.spacingHorizontalL },
  },
  fieldset: {
    border: 'none',
    margin: 0,
    padding: 0,
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalXS,
  },
  legend: { padding: 0, fontWeight: tokens.fontWeightSemibold, marginBottom: tokens.spacingVerticalXS },
  alert: { margin: 0, color: tokens.colorPaletteRedForeground1 },
});

/** Category labels as the choices say them: 'Tax documents' rather than the upload form's 'Tax Documents'. */
function categoryChoice(category: DocumentCategory): string {
  const label = documentCategoryLabels[category];
  return category === 'other' ? 'Other personal documents' : label.charAt(0) + label.slice(1).toLowerCase();
}

export interface ShareAccessDialogProps {
  /** The investor's own properties, which 'Only these properties' chooses from. */
  properties: { id: number; name: string }[];
  /** What was typed before, when the owner's proof was cancelled. */
  initial: ShareDraft | null;
  /** The server's refusal of the address (already shared with). */
  emailProblem?: string;
  onContinue: (draft: ShareDraft) => void;
  /** Cancel or Escape; the caller gives the focus back to 'Share access'. */
  onClose: () => void;
}

/**
 * 'Share access': with whom, which personal and which property documents, until when,
 * whether they are e-mailed about new ones, and a note for the e-mail. Continue checks it with
 * the contract's own schema; the owner's proof comes next.
 */
export function ShareAccessDialog({ properties, initial, emailProblem, onContinue, onClose }: ShareAccessDialogProps) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const [form, setForm] = useState(() => formOf(initial));
  const [errors, setErrors] = useState<Partial<Record<FormKey, string>>>(() => (emailProblem ? { email: emailProblem } : {}));
  const formRef = useRef<HTMLFormElement>(null);
  const today = firmToday();

  const focusField = (key: FormKey) => {
    const target = formRef.current?.querySelector<HTMLElement>(`[name="${key}"]`);
    target?.focus();
  };
  // The e-mail field first, or the field the server refused.
  useEffect(() => focusField('email'), []);

  const set = <K extends FormKey>(key: K, value: ShareForm[K]) => {
    setForm((previous) => ({ ...previous, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };
  const toggle = <T,>(list: T[], item: T, on: boolean): T[] => (on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createShareBody.safeParse(shareBodyOf(form));
    if (!parsed.success) {
      const found: Partial<Record<FormKey, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (typeof key === 'string' && key in form) found[key as FormKey] ??= issue.message;
      }
      setErrors(found);
      const first = (Object.keys(form) as FormKey[]).find((k) => found[k]);
      if (first) focusField(first === 'categories' ? 'personalScope' : first === 'propertyIds' ? 'propertyScope' : first);
      return;
    }
    if (parsed.data.endsOn && parsed.data.endsOn < today) {
      setErrors({ endsOn: 'The last day must be today or later.' });
      return focusField('endsOn');
    }
    const { currentPassword: _password, code: _code, ...body } = parsed.data;
    onContinue({ body, chosenProperties: properties.filter((p) => body.propertyIds.includes(p.id)) });
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface} aria-describedby={undefined}>
        <form ref={formRef} onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Share access</DialogTitle>
            <DialogContent className={portal.form}>
              <Text>
                They will see what you choose here, and may download it. If they have no account, our e-mail lets them choose a
                password.
              </Text>
              <Field label="Their email address" required validationMessage={errors.email}>
                <Input
                  type="email"
                  name="email"
                  autoComplete="off"
                  maxLength={fieldMax.email}
                  value={form.email}
                  onChange={(_, data) => set('email', data.value)}
                />
              </Field>
              <fieldset className={styles.fieldset}>
                <legend id="share-personal-legend" className={styles.legend}>
                  Personal documents
                </legend>
                <RadioGroup
                  name="personalScope"
                  aria-labelledby="share-personal-legend"
                  value={form.personalScope}
                  onChange={(_, data) => {
                    set('personalScope', personalScopes.find((s) => s === data.value) ?? form.personalScope);
                    setErrors(({ categories: _c, ...rest }) => rest);
                  }}
                >
                  <Radio value="all" label="All my personal documents" />
                  <Radio value="none" label="None" />
                  {/* Last, so that its choices follow it directly. */}
                  <Radio value="categories" label="Only these categories" />
                </RadioGroup>
                {form.personalScope === 'categories' && (
                  <div className={styles.choices} role="group" aria-label="Categories to share">
                    {documentCategories.map((c) => (
                      <Checkbox
                        key={c}
                        label={categoryChoice(c)}
                        checked={form.categories.includes(c)}
                        onChange={(_, data) => set('categories', toggle(form.categories, c, data.checked === true))}
                      />
                    ))}
                  </div>
                )}
                {(errors.personalScope ?? errors.categories) && (
                  <p className={styles.alert} role="alert">
                    {errors.personalScope ?? errors.categories}
                  </p>
                )}
              </fieldset>
              <fieldset className={styles.fieldset}>
                <legend id="share-property-legend" className={styles.legend}>
                  Property documents
                </legend>
                <RadioGroup
                  name="propertyScope"
                  aria-labelledby="share-property-legend"
                  value={form.propertyScope}
                  onChange={(_, data) => {
                    set('propertyScope', propertyScopes.find((s) => s === data.value) ?? form.propertyScope);
                    setErrors(({ propertyIds: _p, personalScope: _s, ...rest }) => rest);
                  }}
                >
                  <Radio value="all" label="All my properties, now and later, with the firm's General documents" />
                  <Radio value="none" label="None" />
                  <Radio value="properties" label="Only these properties" disabled={properties.length === 0} />
                </RadioGroup>
                {form.propertyScope === 'properties' && (
                  <div className={styles.choices} role="group" aria-label="Properties to share">
                    {properties.map((p) => (
                      <Checkbox
                        key={p.id}
                        label={p.name}
                        checked={form.propertyIds.includes(p.id)}
                        onChange={(_, data) => set('propertyIds', toggle(form.propertyIds, p.id, data.checked === true))}
                      />
                    ))}
                  </div>
                )}
                {errors.propertyIds && (
                  <p className={styles.alert} role="alert">
                    {errors.propertyIds}
                  </p>
                )}
              </fieldset>
              <Field
                label="Last day they may see them (optional)"
                hint="Leave it empty for no end; you can revoke at any time."
                validationMessage={errors.endsOn}
              >
                <Input type="date" name="endsOn" min={today} value={form.endsOn} onChange={(_, data) => set('endsOn', data.value)} />
              </Field>
              <Checkbox
                name="notify"
                label="E-mail them when new documents arrive"
                checked={form.notify}
                onChange={(_, data) => set('notify', data.checked === true)}
              />
              <Field label="A note for the e-mail (optional)" validationMessage={errors.note}>
                <Textarea
                  name="note"
                  resize="vertical"
                  maxLength={fieldMax.message}
                  value={form.note}
                  onChange={(_, data) => set('note', data.value)}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary">
                Continue
              </Button>
              <Button type="button" onClick={onClose}>
                Cancel
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
