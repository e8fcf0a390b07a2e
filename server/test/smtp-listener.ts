// The real SMTP listener of the server's tests, for other packages' tests (the desktop sync's),
// which reach the server's test tools through server/test only, as they do the harness.
export { SmtpListener, type ReceivedMail } from '../src/features/mail/testing/smtp-listener';
