import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { User } from '../features/users/user.entity';
import { createLogger } from '../logger';
import { cleanDatabaseMessage, sqlWithoutValues } from './error-values';

describe('database errors in the log', () => {
  let server: TestServer;
  const lines: string[] = [];
  const logger = createLogger('error', { write: (line: string) => void lines.push(line) });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** The line the error handler would write for `error`. */
  const logged = (error: unknown) => {
    lines.length = 0;
    logger.error('request failed', error);
    return lines.join('');
  };

  it("keeps a unique violation's class, code and constraint, without the row's values", async () => {
    const em = server.services.orm.em.fork();
    em.create(User, { email: 'twice.logged@example.com', passwordHash: 'x', firstName: 'Twice', lastName: 'Secretname' });
    await em.flush();
    const again = server.services.orm.em.fork();
    again.create(User, { email: 'twice.logged@example.com', passwordHash: 'x', firstName: 'Twice', lastName: 'Secretname' });
    const error = await again.flush().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const line = logged(error);
    expect(line).not.toMatch(/twice\.logged|Secretname/);
    expect(line).toContain('UniqueConstraintViolationException');
    expect(line).toContain('23505');
    expect(JSON.parse(line).err.message).toMatch(/^insert into "users" \("email", .*\) values \(\?, \?, \?, \?, \?, \?\)/);
    expect(line).toMatch(/duplicate key value violates unique constraint/);
  });

  it("keeps a failed lookup's entity, without its where-condition", async () => {
    const error = await server.services.orm.em
      .fork()
      .findOneOrFail(User, { email: 'nobody.logged@example.com' })
      .then(() => null, (e: unknown) => e);
    const line = logged(error);
    expect(line).not.toContain('nobody.logged');
    expect(line).toContain('User not found');
  });

  it('replaces the literals of a statement and the quoted values of a sentence, not its names', () => {
    expect(sqlWithoutValues(`select "u".* from "users" as "u" where "u"."email" = 'a''b@x.com' and "u"."id" = 42 and "is_active" = true limit 1`)).toBe(
      `select "u".* from "users" as "u" where "u"."email" = ? and "u"."id" = ? and "is_active" = ? limit ?`,
    );
    expect(cleanDatabaseMessage(`select * from "users" where "id" = 'abc' - invalid input syntax for type integer: "abc"`)).toBe(
      `select * from "users" where "id" = ? - invalid input syntax for type integer: "…"`,
    );
    expect(cleanDatabaseMessage(`insert into "users" ("email") values ('x') - duplicate key value violates unique constraint "users_email_unique"`)).toBe(
      `insert into "users" ("email") values (?) - duplicate key value violates unique constraint "users_email_unique"`,
    );
  });
});
