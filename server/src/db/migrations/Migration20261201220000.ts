import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-in codes e-mailed to an account that strangers have guessed at past the hourly ceiling
 * (auth/sign-in-code.ts), and the wrong codes of each sign-in's second step, which a few of end
 * that sign-in (its password must be given again).
 */
export class Migration20261201220000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sign_in_codes (
        id serial primary key,
        user_id integer not null constraint sign_in_codes_user_id_foreign references users (id) on update cascade on delete cascade,
        code_hash varchar(64) not null,
        expires_at timestamptz not null,
        used_at timestamptz null,
        failed_attempts integer not null default 0,
        created_at timestamptz not null
      );`);
    this.addSql('create index sign_in_codes_user_id_index on sign_in_codes (user_id);');
    this.addSql('alter table second_step_challenges add column failed_codes integer not null default 0;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table second_step_challenges drop column if exists failed_codes;');
    this.addSql('drop table if exists sign_in_codes;');
  }
}
