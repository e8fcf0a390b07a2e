import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A budget that grows back (a generic cell rate algorithm): `fullAt` is when the key has its whole
 * budget again; each event pushes it one refill later. A key without a row, or whose `fullAt` has
 * passed, is full. Kept in PostgreSQL so that every server instance spends the same budget.
 */
export const RateLimitBudget = defineEntity({
  name: 'RateLimitBudget',
  tableName: 'rate_limit_budgets',
  properties: {
    key: p.string().length(300).primary(),
    fullAt: p.datetime(),
  },
});
export type IRateLimitBudget = InferEntity<typeof RateLimitBudget>;
