import { Migration } from '@mikro-orm/migrations';

/**
 * Budgets that grow back: per key, the moment it is full again. A client address's
 * failed sign-ins spend it and it refills one attempt at a time, so a busy office or a guesser is
 * slowed down rather than locked out for a whole window (`rateLimiter.take`).
 */
export class Migration20261127140000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "rate_limit_budgets" ("key" varchar(300) not null, "full_at" timestamptz not null, constraint "rate_limit_budgets_pkey" primary key ("key"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "rate_limit_budgets";');
  }
}
