import { useState } from 'react';
import { Card, makeStyles, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import type { InvestorDocument } from '@everest/core/contract';
import { expandedYearOf, groupPersonalDocuments, groupPropertyDocuments, portalMessages } from '@everest/core/domain';
import { usePortalStyles } from '../components/portal-styles';
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

/** 'Your Documents': property and personal documents in two tabs, grouped as the spec orders them. */
export function YourDocuments() {
  const portal = usePortalStyles();
  const styles = useStyles();
  const list = styles.list;
  const [tab, setTab] = useState<DocumentTab>('property');
  const [previewed, setPreviewed] = useState<InvestorDocument | null>(null);
  const { data, isPending, isError } = useQuery(documentsQueryOptions);

  const documents = data?.documents ?? [];
  const propertyDocuments = documents.filter((d) => d.documentType === 'property');
  const personalDocuments = documents.filter((d) => d.documentType === 'personal');

  return (
    <Card className={portal.card} aria-labelledby="your-documents-title">
      <h2 id="your-documents-title" className={portal.cardTitle}>
        Your Documents
      </h2>
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value === 'personal' ? 'personal' : 'property')}>
        {/* No count until the list is here: '(0)' while loading would tell an investor they have nothing. */}
        <Tab value="property">Property Documents{data ? ` (${propertyDocuments.length})` : ''}</Tab>
        <Tab value="personal">Personal Documents{data ? ` (${personalDocuments.length})` : ''}</Tab>
      </TabList>
      <div role="tabpanel" aria-label={tab === 'property' ? 'Property Documents' : 'Personal Documents'}>
        {isPending ? (
          <Text>Loading documents...</Text>
        ) : isError ? (
          <Text role="alert">Your documents could not be loaded. Please try again later.</Text>
        ) : tab === 'property' ? (
          propertyDocuments.length === 0 ? (
            <Text>{portalMessages.noPropertyDocuments}</Text>
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
                        <DocumentItem key={d.id} document={d} onPreview={setPreviewed} />
                      ))}
                    </ul>
                  </YearSection>
                ))}
              </section>
            ))
          )
        ) : personalDocuments.length === 0 ? (
          <Text>{portalMessages.noPersonalDocuments}</Text>
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
                        <DocumentItem key={d.id} document={d} onPreview={setPreviewed} />
                      ))}
                    </ul>
                  </section>
                ))}
              </YearSection>
            ))}
          </div>
        )}
      </div>
      <DocumentPreviewDialog document={previewed} onClose={() => setPreviewed(null)} />
    </Card>
  );
}
