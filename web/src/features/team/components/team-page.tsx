import { useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { pageContent } from '@everest/fixtures/page-content';
import { team } from '@everest/fixtures/team';
import type { TeamMemberFixture } from '@everest/fixtures';
import { PageContainer } from '../../../components/ui/page-container';
import { accentGold, everestBrand } from '../../../lib/theme';
import { teamPhotoUrl } from '../team-photos';
import { failedImageRef } from '../../../components/ui/image-failure';

// The portraits are 400 × 400; the first row is in view on arrival, the rest load on scroll.
const photoSize = 400;
const eagerPhotoCount = 3;

const useStyles = makeStyles({
  intro: {
    margin: `0 0 ${tokens.spacingVerticalXXL}`,
    maxWidth: '70ch',
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 300px), 1fr))',
    gap: tokens.spacingHorizontalXL,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    height: '100%',
    overflow: 'hidden',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  photo: {
    display: 'block',
    width: '100%',
    height: 'auto',
    aspectRatio: '4 / 3',
    objectFit: 'cover',
    objectPosition: 'center 30%',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    borderTop: `3px solid ${accentGold.onDark}`,
  },
  name: {
    margin: 0,
    color: everestBrand[30],
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  title: {
    margin: 0,
    color: accentGold.onLight,
    fontWeight: tokens.fontWeightSemibold,
  },
  bio: {
    margin: 0,
    color: tokens.colorNeutralForeground2,
    lineHeight: tokens.lineHeightBase400,
  },
});

function TeamMemberCard({ member, lazyPhoto }: { member: TeamMemberFixture; lazyPhoto: boolean }) {
  const styles = useStyles();
  const photo = teamPhotoUrl(member.image);
  // Spec: a photo that fails to load is hidden; the card keeps the name, title and biography.
  const [photoFailed, setPhotoFailed] = useState(false);
  return (
    <article className={styles.card}>
      {photo && !photoFailed && (
        <img
          src={photo}
          alt={`Portrait of ${member.name}`}
          width={photoSize}
          height={photoSize}
          loading={lazyPhoto ? 'lazy' : 'eager'}
          decoding="async"
          className={styles.photo}
          ref={failedImageRef(() => setPhotoFailed(true))}
          onError={() => setPhotoFailed(true)}
        />
      )}
      <div className={styles.body}>
        <h2 className={styles.name}>{member.name}</h2>
        <p className={styles.title}>{member.title}</p>
        <p className={styles.bio}>{member.bio}</p>
      </div>
    </article>
  );
}

/** /management-team: the ten team members with photo, name, title and biography (spec). */
export function TeamPage() {
  const styles = useStyles();
  const { heading, intro } = pageContent.managementTeam;
  return (
    <PageContainer title={heading}>
      <p className={styles.intro}>{intro}</p>
      <ul className={styles.grid}>
        {team.map((member, index) => (
          <li key={member.name}>
            <TeamMemberCard member={member} lazyPhoto={index >= eagerPhotoCount} />
          </li>
        ))}
      </ul>
    </PageContainer>
  );
}
