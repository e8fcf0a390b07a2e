import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Combobox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Option,
  useRestoreFocusTarget,
} from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import { documentCategoryLabels, fieldMax, pickInvestor, rowProblem, setTaxYear, type ReviewRow } from '@everest/core/domain';
import type { MatchingInvestor } from '../lib/match-by-content';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { useBulkStyles } from './bulk-styles';

export interface ContentReviewTableProps {
  rows: readonly ReviewRow[];
  investors: readonly MatchingInvestor[];
  /** A row as staff changed it (its investor, tax year, title, or excluded). */
  onChange: (row: ReviewRow) => void;
  disabled?: boolean;
}

export const contentReviewTexts = {
  matched: 'Matched',
  picked: 'Named by you',
  needsPerson: 'Needs a person',
  excluded: 'Excluded',
  wholeFile: 'Whole file',
  badYear: 'Give the tax year as four digits, or leave it empty.',
  noTitle: 'Give the document a title.',
  noMatch: 'No investor matches',
} as const;

/** "Sarah Thompson, Thompson Family Trust (investor2@example.com)": whom a row goes to, told apart by e-mail. */
export function investorLabel(investor: MatchingInvestor): string {
  const who = [investor.name, investor.entity].filter(Boolean).join(', ');
  return `${who || investor.email} (${investor.email})${investor.active ? '' : ', deactivated'}`;
}

const pagesText = (pages: readonly number[] | null) =>
  pages === null ? contentReviewTexts.wholeFile : pages.length === 1 ? `Page ${pages[0]}` : `Pages ${pages[0]}–${pages.at(-1)}`;

const column = createColumnHelper<ReviewRow>();

/**
 * The rows of Match by content for staff to check before anything is sent: each file or section
 * of a combined PDF with its investor (or why it needs a person, and the candidates), the words
 * that matched, and the title and category it will get. Change opens one row's editor (its
 * investor, tax year and title); Exclude leaves a row out. The K-1's words show only here, in the
 * administrator's review.
 */
export function ContentReviewTable({ rows, investors, onChange, disabled = false }: ContentReviewTableProps) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const [editing, setEditing] = useState<ReviewRow | null>(null);
  const byId = useMemo(() => new Map(investors.map((investor) => [investor.id, investor])), [investors]);
  // The table draws each cell as a component of its column: new columns would draw new buttons,
  // and the focus could not return to the Change that opened the editor. So the columns depend on
  // nothing that changes with every render; the latest onChange is read when a row changes.
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  const columns = useMemo(
    () => [
      column.display({
        id: 'exclude',
        header: 'Exclude',
        cell: ({ row }) => (
          <Checkbox
            aria-label={`Exclude ${row.original.key}`}
            checked={row.original.excluded}
            disabled={disabled}
            onChange={(_, data) => changed.current({ ...row.original, excluded: data.checked === true })}
          />
        ),
      }),
      column.accessor('key', {
        header: 'File',
        meta: { card: 'title' },
        cell: ({ row }) => (
          <div className={styles.cellStack}>
            <span className={bulk.filename}>{row.original.source}</span>
            <span className={styles.muted}>{pagesText(row.original.pages)}</span>
          </div>
        ),
      }),
      column.display({
        id: 'investor',
        header: 'Investor',
        cell: ({ row }) => {
          const r = row.original;
          const investor = r.investorId === null ? undefined : byId.get(r.investorId);
          const problem = rowProblem(r);
          const badge = r.excluded
            ? { label: contentReviewTexts.excluded, color: 'subtle' as const }
            : problem
              ? { label: contentReviewTexts.needsPerson, color: 'danger' as const }
              : { label: r.matched ? contentReviewTexts.matched : contentReviewTexts.picked, color: r.matched ? ('success' as const) : ('informative' as const) };
          const candidates = r.investorId === null ? r.candidates.map((id) => byId.get(id)).filter((c) => c !== undefined) : [];
          return (
            <div className={styles.cellStack}>
              <span>
                <Badge appearance="tint" color={badge.color}>
                  {badge.label}
                </Badge>
              </span>
              {investor && <span className={styles.breakAnywhere}>{investorLabel(investor)}</span>}
              {problem && !r.excluded && <span className={styles.muted}>{problem}</span>}
              {candidates.length > 0 && <span className={styles.muted}>{`Candidates: ${candidates.map(investorLabel).join('; ')}`}</span>}
            </div>
          );
        },
      }),
      column.accessor('snippet', {
        header: 'Words that matched',
        cell: (info) => <span className={styles.muted}>{info.getValue() ?? '—'}</span>,
      }),
      column.display({
        id: 'title',
        header: 'Title',
        cell: ({ row }) => (
          <div className={styles.cellStack}>
            <span>{row.original.title || '—'}</span>
            <span className={styles.muted}>{`${documentCategoryLabels[row.original.category]}, tax year ${row.original.taxYear ?? 'not stated'}`}</span>
          </div>
        ),
      }),
      column.display({
        id: 'actions',
        header: 'Actions',
        meta: { card: 'actions' },
        cell: ({ row }) => <ChangeButton row={row.original} disabled={disabled} onOpen={setEditing} />,
      }),
    ],
    [styles, bulk, byId, disabled],
  );
  const table = useAdminTable({ data: rows as ReviewRow[], columns, getRowId: (row) => row.key });

  return (
    <>
      <div className={bulk.scroll}>
        <AdminTable table={table} label="Files and sections to publish" empty="No PDF was read." />
      </div>
      <ReviewRowDialog
        row={editing}
        investors={investors}
        onSave={(row) => {
          onChange(row);
          setEditing(null);
        }}
        onClose={() => setEditing(null)}
      />
    </>
  );
}

/** A row's Change: where the focus returns when its editor closes. */
function ChangeButton({ row, disabled, onOpen }: { row: ReviewRow; disabled: boolean; onOpen: (row: ReviewRow) => void }) {
  const restoreFocusTarget = useRestoreFocusTarget();
  return (
    <Button {...restoreFocusTarget} disabled={disabled} aria-label={`Change ${row.key}`} onClick={() => onOpen(row)}>
      Change
    </Button>
  );
}

/** The investors a search finds, candidates first: by name, entity or e-mail, at most 50. */
function searchInvestors(investors: readonly MatchingInvestor[], candidates: readonly number[], text: string): MatchingInvestor[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const found = investors.filter((investor) => {
    const haystack = `${investor.name} ${investor.entity} ${investor.email}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  const first = new Set(candidates);
  return [...found.filter((i) => first.has(i.id)), ...found.filter((i) => !first.has(i.id))].slice(0, 50);
}

/** One row's editor: its investor (candidates first, searchable), tax year and title. */
function ReviewRowDialog({
  row,
  investors,
  onSave,
  onClose,
}: {
  row: ReviewRow | null;
  investors: readonly MatchingInvestor[];
  onSave: (row: ReviewRow) => void;
  onClose: () => void;
}) {
  const styles = useAdminStyles();
  const [investorId, setInvestorId] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  // Open while searching: typed or pasted text shows its matches at once.
  const [open, setOpen] = useState(false);
  const [year, setYear] = useState('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<{ year?: string; title?: string }>({});
  const [shown, setShown] = useState<ReviewRow | null>(null);
  const byId = useMemo(() => new Map(investors.map((investor) => [investor.id, investor])), [investors]);
  if (row !== shown) {
    setShown(row);
    setInvestorId(row?.investorId ?? null);
    const current = row?.investorId == null ? undefined : byId.get(row.investorId);
    setSearch(current ? investorLabel(current) : '');
    setYear(row?.taxYear === null || row?.taxYear === undefined ? '' : String(row.taxYear));
    setTitle(row?.title ?? '');
    setError({});
    setOpen(false);
  }
  const chosen = investorId === null ? undefined : byId.get(investorId);
  const options = row ? searchInvestors(investors, row.candidates, chosen && search === investorLabel(chosen) ? '' : search) : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!row) return;
    const typedYear = year.trim();
    if (typedYear !== '' && !/^\d{4}$/.test(typedYear)) {
      setError({ year: contentReviewTexts.badYear });
      return;
    }
    const taxYear = typedYear === '' ? null : Number(typedYear);
    let next = investorId === row.investorId ? row : pickInvestor(row, investorId);
    if (taxYear !== row.taxYear) next = setTaxYear(next, taxYear);
    // A title staff typed wins over the one the year gives.
    if (title.trim() !== row.title) next = { ...next, title: title.trim() };
    if (next.title === '') {
      setError({ title: contentReviewTexts.noTitle });
      return;
    }
    onSave(next);
  };

  return (
    <Dialog open={row !== null} modalType="modal" onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface aria-describedby="review-row-intro">
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{row ? `Change ${row.key}` : 'Change row'}</DialogTitle>
            <DialogContent className={styles.form}>
              <p id="review-row-intro">
                {row?.matched
                  ? 'The rule gave this K-1 to the investor below. Pick another only if you are sure.'
                  : 'Name the investor this K-1 belongs to. The candidates, whose identifiers appear in it, come first.'}
              </p>
              <Field label="Investor" hint="Type a name, entity or e-mail">
                <Combobox
                  name="reviewInvestor"
                  freeform
                  autoComplete="off"
                  placeholder="Search investors"
                  // Typing replaces the chosen investor's label instead of adding to it.
                  onFocus={(event) => event.currentTarget.select()}
                  value={search}
                  open={open}
                  onOpenChange={(_, data) => setOpen(data.open)}
                  selectedOptions={investorId === null ? [] : [String(investorId)]}
                  onInput={(event) => {
                    setSearch(event.currentTarget.value);
                    setInvestorId(null);
                    setOpen(true);
                  }}
                  onOptionSelect={(_, data) => {
                    if (!data.optionValue) return;
                    setInvestorId(Number(data.optionValue));
                    setSearch(data.optionText ?? '');
                  }}
                >
                  {options.map((investor) => (
                    <Option key={investor.id} value={String(investor.id)} text={investorLabel(investor)}>
                      {`${investorLabel(investor)}${row?.candidates.includes(investor.id) ? ' · candidate' : ''}`}
                    </Option>
                  ))}
                  {options.length === 0 && (
                    <Option disabled value="" text="">
                      {contentReviewTexts.noMatch}
                    </Option>
                  )}
                </Combobox>
              </Field>
              <Field label="Tax year" validationMessage={error.year} hint="As the form states it: the title follows it">
                <Input name="reviewTaxYear" inputMode="numeric" maxLength={4} value={year} onChange={(_, data) => setYear(data.value)} />
              </Field>
              <Field label="Title" validationMessage={error.title}>
                <Input name="reviewTitle" value={title} maxLength={fieldMax.title} onChange={(_, data) => setTitle(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary">
                Save
              </Button>
              <Button onClick={onClose}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
