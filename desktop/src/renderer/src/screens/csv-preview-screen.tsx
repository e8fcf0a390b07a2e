import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Button, MessageBar, MessageBarBody, Spinner, Text } from '@fluentui/react-components';
import { csvDelimiterLabels, csvEncodingLabels, importChangeFields, roleLabels, staffChangeLabel } from '@everest/core/domain';
import { api } from '../lib/api';
import { errorMessage } from '../lib/error-message';
import { previewImportCsv, type CsvPreview } from '../lib/csv-preview';
import { MiddleTruncatedPath } from '../lib/middle-truncated-path';
import { useScreenStyles } from './styles';

type State = { state: 'idle' } | { state: 'reading'; name: string } | { state: 'ready'; name: string; preview: CsvPreview };

/** Items listed per list; the rest is counted (10,000 list items would slow every render). */
const listed = 500;

/**
 * A bulk user import CSV read and checked on this machine, and compared with the server's users,
 * before anything is sent: the import itself is the panel's Bulk Import tab.
 */
export function CsvPreviewScreen() {
  const screen = useScreenStyles();
  const [state, setState] = useState<State>({ state: 'idle' });
  const [failure, setFailure] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The preview's heading takes the focus when it shows: the keyboard follows what changed.
  useEffect(() => {
    if (state.state === 'ready') headingRef.current?.focus();
  }, [state]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Emptied, so that choosing the same file again (edited meanwhile) reads it again.
    event.target.value = '';
    if (!file) return;
    setFailure(null);
    setState({ state: 'reading', name: file.name });
    try {
      const [bytes, users, userProperties, investorProperties] = await Promise.all([
        file.arrayBuffer(),
        // Called as the spec calls it (no paging): every user, for the comparison.
        api.call('adminUsers', undefined, { cache: 'no-store' }),
        api.call('adminUserProperties'),
        api.call('adminInvestorProperties'),
      ]);
      const preview = previewImportCsv(new Uint8Array(bytes), {
        users: users.users,
        userProperties: userProperties.userProperties,
        investorPropertyNames: investorProperties.properties.map((p) => p.name),
      });
      setState({ state: 'ready', name: file.name, preview });
    } catch (error) {
      setFailure(errorMessage(error));
      setState({ state: 'idle' });
    }
  }

  return (
    <section className={screen.screen} aria-labelledby="csv-preview-title">
      <Text as="h2" size={500} weight="semibold" id="csv-preview-title">
        CSV Preview
      </Text>
      <Text className={screen.muted}>
        A bulk user import file is read and checked on this computer and compared with the portal&apos;s users. Nothing is sent: import it
        from the Administration Panel&apos;s Bulk Import tab.
      </Text>
      {/* The panel's own button for the system's file dialog; the native control stays hidden. */}
      <div className={screen.row}>
        <Button
          appearance="primary"
          aria-describedby="csv-chosen-file"
          disabledFocusable={state.state === 'reading'}
          onClick={() => {
            if (state.state !== 'reading') inputRef.current?.click();
          }}
        >
          Choose a CSV file…
        </Button>
        {state.state === 'idle' ? (
          <Text id="csv-chosen-file" className={screen.muted}>
            No file chosen
          </Text>
        ) : (
          <MiddleTruncatedPath id="csv-chosen-file" path={state.name} />
        )}
        <input ref={inputRef} type="file" accept=".csv,text/csv" hidden aria-label="CSV file" onChange={(event) => void choose(event)} />
      </div>
      {failure && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{failure}</MessageBarBody>
        </MessageBar>
      )}
      {state.state === 'reading' && <Spinner label={`Reading ${state.name}…`} />}
      {state.state === 'ready' && <PreviewResult name={state.name} preview={state.preview} headingRef={headingRef} />}
    </section>
  );
}

function PreviewResult({ name, preview, headingRef }: { name: string; preview: CsvPreview; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const screen = useScreenStyles();
  return (
    <>
      <Text as="h3" size={400} weight="semibold" ref={headingRef} tabIndex={-1}>
        Preview of {name}
      </Text>
      {preview.error ? (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{preview.error}</MessageBarBody>
        </MessageBar>
      ) : (
        <>
          <Text className={screen.muted}>
            Read as {csvEncodingLabels[preview.encoding]}, columns separated by {csvDelimiterLabels[preview.delimiter]}.
          </Text>
          <ul className={screen.counts} aria-label="Preview counts">
            <li>Rows read: {preview.rowsRead}</li>
            <li>New users: {preview.newUsers.length}</li>
            <li>Existing users with changes: {preview.changed.length}</li>
            <li>Existing users unchanged: {preview.unchanged.length}</li>
            <li>Errors: {preview.errors.length}</li>
            <li>Staff accounts: {preview.staffRows.length}</li>
          </ul>
          {preview.staffRows.length > 0 && (
            <MessageBar intent="warning">
              <MessageBarBody>
                This file makes administrators or Everest employees, or changes roles. The Bulk Import tab lists these rows apart and
                imports them only once you confirm each one (role changes of existing users only when they are updated).
              </MessageBarBody>
            </MessageBar>
          )}
          <List
            title="Staff accounts in this file"
            items={preview.staffRows.map((row) =>
              [`Row ${row.row}: ${row.email}`, [row.firstName, row.lastName].filter(Boolean).join(' ') || row.entity, staffChangeLabel(row)]
                .filter(Boolean)
                .join(' · '),
            )}
          />
          <List
            title="New users"
            items={preview.newUsers.map(
              (row) => `${row.email} (${[[row.firstName, row.lastName].filter(Boolean).join(' ') || row.entity, roleLabels[row.role]].filter(Boolean).join(', ')})`,
            )}
          />
          <List
            title="Existing users with changes"
            items={preview.changed.map(({ row, changes }) =>
              [
                row.email,
                ...importChangeFields.flatMap((field) => {
                  const change = changes.changes[field];
                  return change ? [`${field}: ${change.from ?? ''} → ${change.to ?? ''}`] : [];
                }),
                ...(changes.newPropertyAccess.length > 0 ? [`New property access: ${changes.newPropertyAccess.join(', ')}`] : []),
              ].join('; '),
            )}
          />
          {/* The bad value, as the web's preview shows it: text (never markup), which core shortened
              and whose control characters and bidirectional marks it replaced, so that a hostile
              CSV can neither inject markup nor make a value read as something else. */}
          <List
            title="Errors (will be skipped)"
            items={preview.errors.map((e) => `Row ${e.row}: ${e.error}${e.value === undefined ? '' : ` Value: “${e.value}”`}`)}
          />
        </>
      )}
    </>
  );
}

function List({ title, items }: { title: string; items: string[] }) {
  const screen = useScreenStyles();
  const id = `csv-list-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div>
      <Text as="h4" weight="semibold" id={id}>
        {title}
      </Text>
      {items.length === 0 ? (
        <Text className={screen.muted}> None.</Text>
      ) : (
        <ul className={screen.list} aria-labelledby={id} tabIndex={0}>
          {items.slice(0, listed).map((item, index) => (
            <li key={index}>{item}</li>
          ))}
          {items.length > listed && <li>…and {items.length - listed} more.</li>}
        </ul>
      )}
    </div>
  );
}
