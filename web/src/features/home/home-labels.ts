// The spec's button texts of the hero (public site, section 2). Every other text of the home
// page is content (fixtures): these two are also there, but the hero reads them from here so that
// the entry chunk does not carry the whole content of the site for two labels.
export const homeLabels = {
  viewPortfolio: 'View Our Portfolio',
  investorInquiries: 'Investor Inquiries',
} as const;
