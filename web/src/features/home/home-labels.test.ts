import { describe, expect, it } from 'vitest';
import { siteContent } from '@everest/fixtures/content';
import { homeLabels } from './home-labels';

describe('homeLabels', () => {
  it("are the content's hero buttons, which the spec names", () => {
    expect(homeLabels.viewPortfolio).toBe(siteContent.hero.primaryButton);
    expect(homeLabels.investorInquiries).toBe(siteContent.hero.secondaryButton);
  });
});
