import { useState } from 'react';
import { Button, Field, MessageBar, MessageBarActions, MessageBarBody, Select, Text } from '@fluentui/react-components';
import { documentYears, quarters, type Quarter } from '@everest/core/domain';
import type { ContentDropFolder } from '../../../../shared/api';
import { useScreenStyles } from '../styles';

export const contentMatchTexts = {
  offer: (content: ContentDropFolder) =>
    `${content.folder === '' && content.files.length === 1 ? content.files[0]! : `${content.files.length} file${content.files.length === 1 ? '' : 's'} in ${content.folder || 'this investors folder'}`} ha${content.files.length === 1 ? 's' : 've'} no manifest.csv: Match by content reads the K-1s and names each one's investor, for you to check before anything is sent.`,
  choosePeriod: 'No quarter folder holds it: choose the quarter its documents are filed under.',
  button: 'Match by content',
  reading: (files: number) => `Reading ${files} PDF${files === 1 ? '' : 's'}…`,
} as const;

/** An investors folder Match by content can read, with the quarter it is filed under. */
export type ContentToMatch = ContentDropFolder & { year: number; quarter: Quarter };

/**
 * The plan's offer to match an investors folder without manifest.csv by content; with no quarter
 * folder to file it under, staff choose the year and quarter first.
 */
export function ContentMatchOffer({ content, onMatch }: { content: ContentDropFolder; onMatch: (content: ContentToMatch) => void }) {
  const [year, setYear] = useState(content.year);
  const [quarter, setQuarter] = useState(content.quarter);
  const screen = useScreenStyles();
  const chosen = year !== null && quarter !== null ? { ...content, year, quarter } : null;
  return (
    <MessageBar intent="info" layout="multiline">
      <MessageBarBody>
        {contentMatchTexts.offer(content)}
        {(content.year === null || content.quarter === null) && (
          <div className={screen.row}>
            <Text>{contentMatchTexts.choosePeriod}</Text>
            <Field label="Year">
              <Select value={year === null ? '' : String(year)} onChange={(_, data) => setYear(data.value ? Number(data.value) : null)}>
                <option value="">Choose…</option>
                {documentYears().map((y) => (
                  <option key={y} value={y}>
                    {y}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Quarter">
              <Select value={quarter ?? ''} onChange={(_, data) => setQuarter(quarters.find((q) => q === data.value) ?? null)}>
                <option value="">Choose…</option>
                {quarters.map((q) => (
                  <option key={q} value={q}>
                    {q}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        )}
      </MessageBarBody>
      <MessageBarActions>
        <Button disabled={chosen === null} onClick={() => chosen && onMatch(chosen)}>
          {contentMatchTexts.button}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
