import { useEffect, useState, type ReactNode } from 'react';
import { Card, makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@everest/core/client';
import type { IncomingShare, InvestorDocument } from '@everest/core/contract';
import { expandedYearOf, groupPersonalDocuments, groupPropertyDocuments, portalMessages } from '@everest/core/domain';
import { usePortalStyles } from '../components/portal-styles';
import { sharedWithMeQueryKey } from '../api/shares';
import { shareEndWords, shareScopeWords } from '../../../lib/share-words';
import { DocumentItem } from './document-item';
import { DocumentPreviewDialog } from './document-preview-dialog';
import { documentsQueryOptions } from './documents-query';
import { YearSection } from './year-section';

const useStyles = makeStyles({
  group: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalM },
  groupTitle: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  list: { listStyle: 'none', margin: 0, padding: 0 },
  /** The two tabs take 391 px; on a phone the second wraps below the first instead of being cut off by the card. */
  tabs: { flexWrap: 'wrap' },
  quarterTitle: { margin: `${tokens.spacingVerticalS} 0 0`, fontSize: tokens.fontSizeBase300, color: tokens.colorNeutralForeground2 },
});

type DocumentTab = 'property' | 'personal';

/** The card's title names whose documents are on screen. */
export function documentsTitle(share: IncomingShare | undefined): string {
  return share ? `${share.ownerName}'s documents, shared with you` : 'Your Documents';
}

export interface YourDocumentsProps {
  /** The share the documents are read through; absent, the person's own. */
  share?: IncomingShare;
  /** The switch between whose documents, when something is shared with the person. */
  switcher?: ReactNode;
}

/**
 * 'Your Documents': property and personal documents in two tabs, grouped as the spec orders them.
 * Through a share, the same card with the sharer's documents, under their name.
 */
export function YourDocuments({ share, switcher }: YourDocumentsProps) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const list = styles.list;
  const onBehalfOf = share?.ownerId;
  // A share of personal documents only opens on them. The tab and the preview belong to one
  // person's documents: switching to another's starts again.
  const defaultTab: DocumentTab = share?.propertyScope === 'none' ? 'personal' : 'property';
  const [chosen, setChosen] = useState<{ for?: number; tab: DocumentTab }>({ for: onBehalfOf, tab: defaultTab });
  const tab = chosen.for === onBehalfOf ? chosen.tab : defaultTab;
  const setTab = (next: DocumentTab) => setChosen({ for: onBehalfOf, tab: next });
  const [previewed, setPreviewed] = useState<InvestorDocument | null>(null);
  const { data, isPending, isError, error } = useQuery(documentsQueryOptions(onBehalfOf));
  const owner = share?.ownerName;
  const noneShared = (kind: string) => `${owner} does not share ${kind} documents with you.`;
  const emptyProperty = share?.propertyScope === 'none' ? noneShared('property') : portalMessages.noPropertyDocuments;
  const emptyPersonal = share?.personalScope === 'none' ? noneShared('personal') : portalMessages.noPersonalDocuments;
  // A share revoked or ended since the switch was loaded answers like an unknown id: the switch
  // is asked again, and leaves it out.
  const shareGone = !!share && error instanceof ApiError && error.status === 404;
  const failure = shareGone ? `${owner} no longer shares documents with you.` : 'Your documents could not be loaded. Please try again later.';
  const queryClient = useQueryClient();
  useEffect(() => {
    if (shareGone) void queryClient.invalidateQueries({ queryKey: sharedWithMeQueryKey });
  }, [shareGone, queryClient]);

  const documents = data?.documents ?? [];
  const propertyDocuments = documents.filter((d) => d.documentType === 'property');
  const personalDocuments = documents.filter((d) => d.documentType === 'personal');

  return (
    <Card className={portal.card} aria-labelledby="your-documents-title">
      <h2 id="your-documents-title" className={portal.cardTitle}>
        {documentsTitle(share)}
      </h2>
      {switcher}
      {share && (
        <Text className={portal.muted} data-testid="share-scope">
          {`Shared with you: ${shareScopeWords(share)}. ${shareEndWords(share.endsOn)}. View and download only.`}
        </Text>
      )}
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value === 'personal' ? 'personal' : 'property')}>
        {/* No count until the list is here: '(0)' while loading would tell an investor they have nothing. */}
        <Tab value="property">Property Documents{data ? ` (${propertyDocuments.length})` : ''}</Tab>
        <Tab value="personal">Personal Documents{data ? ` (${personalDocuments.length})` : ''}</Tab>
      </TabList>
      <div key={onBehalfOf ?? 'own'} role="tabpanel" aria-label={tab === 'property' ? 'Property Documents' : 'Personal Documents'}>
        {isPending ? (
          <Text>Loading documents...</Text>
        ) : isError ? (
          <Text role="alert">{failure}</Text>
        ) : tab === 'property' ? (
          propertyDocuments.length === 0 ? (
            <Text>{emptyProperty}</Text>
          ) : (
            groupPropertyDocuments(propertyDocuments).map((group) => (
              <section key={group.property} className={styles.group}>
                <h3 className={styles.groupTitle}>{group.property}</h3>
                {group.years.map((year, _, years) => (
                  <YearSection
                    key={year.year}
                    year={year.year}
                    count={year.documents.length}
                    heading="h4"
                    defaultOpen={year.year === expandedYearOf(years.map((y) => y.year))}
                  >
                    <ul className={list}>
                      {year.documents.map((d) => (
                        <DocumentItem key={d.id} document={d} onPreview={setPreviewed} onBehalfOf={onBehalfOf} />
                      ))}
                    </ul>
                  </YearSection>
                ))}
              </section>
            ))
          )
        ) : personalDocuments.length === 0 ? (
          <Text>{emptyPersonal}</Text>
        ) : (
          <div className={styles.group}>
            {groupPersonalDocuments(personalDocuments).map((year, _, years) => (
              <YearSection
                key={year.year}
                year={year.year}
                count={year.quarters.reduce((n, q) => n + q.documents.length, 0)}
                heading="h3"
                defaultOpen={year.year === expandedYearOf(years.map((y) => y.year))}
              >
                {year.quarters.map((quarter) => (
                  <section key={quarter.quarter}>
                    <h4 className={styles.quarterTitle}>{quarter.quarter}</h4>
                    <ul className={list}>
                      {quarter.documents.map((d) => (
                        <DocumentItem key={d.id} document={d} onPreview={setPreviewed} onBehalfOf={onBehalfOf} />
                      ))}
                    </ul>
                  </section>
                ))}
              </YearSection>
            ))}
          </div>
        )}
      </div>
      <DocumentPreviewDialog document={previewed} onClose={() => setPreviewed(null)} onBehalfOf={onBehalfOf} />
    </Card>
  );
}
