import { useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { pageContent } from '@everest/fixtures/page-content';
import { transactions } from '@everest/fixtures/transactions';
import type { TransactionFixture } from '@everest/fixtures';
import { PageContainer } from '../../../components/ui/page-container';
import { everestBrand } from '../../../lib/theme';
import { tombstoneUrl } from '../tombstone-images';
import { tombstonesNewestFirst } from '../tombstone-order';
import { failedImageRef } from '../../../components/ui/image-failure';

// The tombstones are 300 × 400; the first row is in view on arrival, the rest load on scroll.
const tombstoneSize = { width: 300, height: 400 } as const;
const eagerCount = 4;

const useStyles = makeStyles({
  intro: {
    margin: `0 0 ${tokens.spacingVerticalL}`,
    maxWidth: '75ch',
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 150px), 1fr))',
    gap: tokens.spacingHorizontalL,
    listStyleType: 'none',
    margin: `${tokens.spacingVerticalXL} 0`,
    padding: 0,
    '@media (min-width: 640px)': {
      gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
    },
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    height: '100%',
    margin: 0,
  },
  image: {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: '3 / 4',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: '#FBF8F1',
    boxShadow: tokens.shadow4,
  },
  unavailable: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalXS,
    aspectRatio: '3 / 4',
    padding: tokens.spacingHorizontalM,
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    textAlign: 'center',
  },
  unavailableTitle: {
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase400,
    fontWeight: tokens.fontWeightSemibold,
  },
  unavailableText: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  caption: {
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
  },
  number: { color: everestBrand[30], fontWeight: tokens.fontWeightSemibold },
  footnote: {
    margin: 0,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
    fontStyle: 'italic',
  },
});

function Tombstone({ transaction, lazy }: { transaction: TransactionFixture; lazy: boolean }) {
  const styles = useStyles();
  const src = tombstoneUrl(transaction.image);
  const [failed, setFailed] = useState(false);
  const label = `Transaction ${transaction.number}`;
  return (
    <figure className={styles.figure} data-transaction={transaction.number}>
      {src && !failed ? (
        <img
          src={src}
          alt={`${label} announcement`}
          width={tombstoneSize.width}
          height={tombstoneSize.height}
          loading={lazy ? 'lazy' : 'eager'}
          decoding="async"
          className={styles.image}
          ref={failedImageRef(() => setFailed(true))}
          onError={() => setFailed(true)}
        />
      ) : (
        // Spec: a failed image is replaced by 'Transaction N' and 'Document Unavailable'.
        <div className={styles.unavailable} data-unavailable>
          <span className={styles.unavailableTitle}>{label}</span>
          <span className={styles.unavailableText}>Document Unavailable</span>
        </div>
      )}
      <figcaption className={styles.caption}>
        <span className={styles.number}>{`No. ${transaction.number}`}</span>
        {transaction.year !== undefined && ` · ${transaction.year}`}
        <br />
        {transaction.description}
      </figcaption>
    </figure>
  );
}

/** /significant-transactions: the 94 tombstones, numbered 94 down to 1, with their texts (spec). */
export function TransactionsPage() {
  const styles = useStyles();
  const { heading, intro, footnote } = pageContent.transactions;
  return (
    <PageContainer title={heading}>
      {intro.map((paragraph) => (
        <p key={paragraph} className={styles.intro}>
          {paragraph}
        </p>
      ))}
      <ol className={styles.grid} reversed>
        {tombstonesNewestFirst(transactions).map((transaction, index) => (
          <li key={transaction.number}>
            <Tombstone transaction={transaction} lazy={index >= eagerCount} />
          </li>
        ))}
      </ol>
      <p className={styles.footnote}>{footnote}</p>
    </PageContainer>
  );
}
