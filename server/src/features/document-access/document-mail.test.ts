import { describe, expect, it } from 'vitest';
import { newDocumentsMail } from './document-mail';

describe('the new-documents digest', () => {
  const portal = 'https://portal.example.com/investor-services';
  const k1 = { title: 'K-1 2025', context: 'Aspen Ridge · 2025 Q4' };
  const letter = { title: 'Q4 Letter', context: 'General · 2025 Q4' };

  it("says 'read it' for one document and 'read them' for several (issue 35)", () => {
    const one = newDocumentsMail('ann@example.com', 'Ann', [k1], portal);
    expect(one.text).toContain("Sign in to the investor portal to read it under 'Your Documents'.");
    const several = newDocumentsMail('ann@example.com', 'Ann', [k1, letter], portal);
    expect(several.text).toContain("Sign in to the investor portal to read them under 'Your Documents'.");
    expect(several.html).toContain('to read them under');
    expect(several.text).not.toContain('read it');
  });
});
