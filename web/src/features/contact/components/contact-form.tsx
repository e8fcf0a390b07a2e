import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { publicMessages } from '@everest/core/domain';
import { preloadToaster } from '../../../components/ui/toast-host';
import { showToast } from '../../../lib/toast';
import { contactFailureMessage, useSendContactMessage } from '../api/send-contact-message';
import { QueryProvider } from '../../../lib/query-provider';
import { CaptchaWidget } from '../captcha/captcha-widget';
import { emptyContactForm, validateContactForm, type ContactField } from '../utils/contact-validation';

const labels: Record<ContactField, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  subject: 'Subject',
  message: 'Message',
};
const sendLabel = 'Send Message';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  names: {
    display: 'grid',
    gap: tokens.spacingVerticalL,
    '@media (min-width: 640px)': { gridTemplateColumns: '1fr 1fr', columnGap: tokens.spacingHorizontalL },
  },
  // Spec section 5: the message box is at least 80 px high.
  message: { minHeight: '80px' },
  submit: { alignSelf: 'flex-start', minWidth: '160px' },
});

/**
 * The contact form (spec sections 4, 5 and 8). Checks happen on submit and speak through error
 * toasts, in the spec's order; the browser's own bubbles are off (noValidate) so that they do
 * not pre-empt those messages. Success clears the form and resets the captcha, whose token is
 * spent; a failure keeps what was typed, and resets the captcha too, since the server may have
 * spent that token before it failed.
 */
function ContactFormContent() {
  const styles = useStyles();
  const [values, setValues] = useState(emptyContactForm);
  const [token, setToken] = useState<string | null>(null);
  const [resetSignal, setResetSignal] = useState(0);
  const send = useSendContactMessage();
  // `send.isPending` turns true a render later: a second click in between would post the same
  // captcha solution again and show an error although the message went.
  const sending = useRef(false);

  // The first toast of the page would otherwise wait for the toaster's chunk.
  useEffect(preloadToaster, []);

  // No id of our own: Field gives the control the id its label points at.
  const field = (name: ContactField) => ({
    name,
    value: values[name],
    onChange: (_: unknown, data: { value: string }) => setValues((current) => ({ ...current, [name]: data.value })),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.current) return;
    const checked = validateContactForm(values, token);
    if (!checked.ok) {
      showToast({ title: publicMessages.contactFailure.title, description: checked.message, variant: 'destructive' });
      return;
    }
    sending.current = true;
    send.mutate(checked.body, {
      onSettled: () => {
        sending.current = false;
      },
      onSuccess: () => {
        showToast(publicMessages.contactSuccess);
        setValues(emptyContactForm);
        setResetSignal((n) => n + 1);
      },
      onError: (error) => {
        showToast({
          title: publicMessages.contactFailure.title,
          description: contactFailureMessage(error),
          variant: 'destructive',
        });
        setResetSignal((n) => n + 1);
      },
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Contact form">
      <div className={styles.names}>
        <Field label={labels.firstName} required>
          <Input {...field('firstName')} autoComplete="given-name" />
        </Field>
        <Field label={labels.lastName} required>
          <Input {...field('lastName')} autoComplete="family-name" />
        </Field>
      </div>
      <Field label={labels.email} required>
        <Input {...field('email')} type="email" autoComplete="email" />
      </Field>
      <Field label={labels.subject} required>
        <Input {...field('subject')} />
      </Field>
      <Field label={labels.message} required>
        <Textarea {...field('message')} resize="vertical" rows={5} textarea={{ className: styles.message }} />
      </Field>
      <CaptchaWidget onToken={setToken} resetSignal={resetSignal} />
      <Button type="submit" appearance="primary" size="large" className={styles.submit} disabled={send.isPending}>
        {send.isPending ? publicMessages.sending : sendLabel}
      </Button>
    </form>
  );
}

/** The form with the query client its sending needs (lib/query-provider.tsx). */
export default function ContactForm() {
  return (
    <QueryProvider>
      <ContactFormContent />
    </QueryProvider>
  );
}
