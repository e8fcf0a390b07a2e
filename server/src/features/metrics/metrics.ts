import { timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RoutePatterns } from '../../http/route-patterns';
import type { AppState } from '../../http/state';
import { droppedLogLines } from '../../log-destination';
import { mailLanes } from '../mail/outbox-message.entity';

/** The path Prometheus scrapes; not under /api, as it is for operators and not in the API's description. */
export const metricsPath = '/metrics';

interface KnexPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * What an operator's Prometheus reads of this instance (`GET /metrics`, with METRICS_TOKEN):
 * requests by route pattern (never a raw path: an id or a token is no label), status and
 * latency; the e-mail outbox's backlog per lane and the e-mails given up; the database pool;
 * log lines dropped because their destination could not take them; and Node's own figures
 * (event-loop lag among them). One registry per instance, so that two test servers in one
 * process count apart.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly patterns = new RoutePatterns();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;

  constructor(orm: MikroORM) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'everest_http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'everest_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by route pattern and method.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers,
    });
    new Gauge({
      name: 'everest_outbox_messages',
      help: "E-mails in the outbox by lane: 'pending' waiting to be sent, 'failed' given up after their last attempt (see mail:retry).",
      labelNames: ['lane', 'status'],
      registers,
      async collect() {
        const rows: { lane: string; status: string; count: number }[] = await orm.em
          .fork()
          .getConnection()
          .execute(`select lane, status, count(*)::int as count from outbox_messages where status in ('pending', 'failed') group by lane, status`);
        for (const lane of mailLanes) {
          for (const status of ['pending', 'failed']) this.set({ lane, status }, rows.find((r) => r.lane === lane && r.status === status)?.count ?? 0);
        }
      },
    });
    new Gauge({
      name: 'everest_db_pool_connections',
      help: "The database pool: connections 'used' and 'free', and requests 'waiting' for one.",
      labelNames: ['state'],
      registers,
      collect() {
        const pool = (orm.em.getConnection().getKnex().client as { pool?: KnexPool }).pool;
        if (!pool) return;
        this.set({ state: 'used' }, pool.numUsed());
        this.set({ state: 'free' }, pool.numFree());
        this.set({ state: 'waiting' }, pool.numPendingAcquires());
      },
    });
    new Gauge({
      name: 'everest_backup_last_success_timestamp_seconds',
      help: 'When the last backup that succeeded finished (Unix time); 0 when none has.',
      registers,
      async collect() {
        const [row]: { at: number | null }[] = await orm.em
          .fork()
          .getConnection()
          .execute(`select extract(epoch from max(finished_at))::float8 as at from backup_runs where outcome = 'succeeded'`);
        this.set(row?.at ?? 0);
      },
    });
    new Gauge({
      name: 'everest_backup_last_run',
      help: "The last backup that ended: 'finished' its Unix time, 'succeeded' 1 or 0, 'size_bytes' its archive's size.",
      labelNames: ['field'],
      registers,
      async collect() {
        const [row]: { at: number; succeeded: boolean; size: number | null }[] = await orm.em
          .fork()
          .getConnection()
          .execute(
            `select extract(epoch from finished_at)::float8 as at, outcome = 'succeeded' as succeeded, size_bytes::float8 as size
               from backup_runs where outcome <> 'running' order by finished_at desc limit 1`,
          );
        this.set({ field: 'finished' }, row?.at ?? 0);
        this.set({ field: 'succeeded' }, row?.succeeded ? 1 : 0);
        this.set({ field: 'size_bytes' }, row?.size ?? 0);
      },
    });
    new Gauge({
      name: 'everest_log_lines_dropped',
      help: 'Log lines dropped since start because their destination could not take them (a terminal nobody reads).',
      registers,
      collect() {
        this.set(droppedLogLines());
      },
    });
  }

  /** One answered request (Koa's and the hot answers' alike, see logRequest). */
  observeRequest(method: string, path: string, status: number, seconds: number): void {
    const route = this.patterns.of(method, path);
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }
}

/**
 * `GET /metrics` in Prometheus' text format, only with `Authorization: Bearer <METRICS_TOKEN>`;
 * without METRICS_TOKEN the path does not exist (404), so that nothing about an instance is
 * shown to whoever asks.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): Middleware<AppState> {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return async (ctx, next) => {
    if (ctx.path !== metricsPath || ctx.method !== 'GET') return next();
    ctx.set('Cache-Control', 'no-store');
    if (!expected) {
      ctx.status = 404;
      ctx.body = { error: 'Not found.' };
      return;
    }
    const offered = Buffer.from(ctx.get('authorization'));
    if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { error: 'The metrics need the bearer token of METRICS_TOKEN.' };
      return;
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
