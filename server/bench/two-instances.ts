import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { ChildServer } from '../test/child-server';
import type { BenchServer } from './bench-server';
import { populate, signIn } from './documents';
import { load, type LoadResult } from './load';

/**
 * A small round-robin load balancer: each request goes to the next instance in turn, over
 * kept-alive connections, as nginx or a cloud balancer would send it.
 */
async function startRoundRobin(targets: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server: Server = createServer((req, res) => {
    const target = new URL(req.url ?? '/', targets[next++ % targets.length]);
    const upstream = request(target, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

const connections = 20;
const seconds = 10;

/**
 * GET /api/investor/documents through a round-robin proxy to one instance and to two, each a
 * process of its own (`cli.ts start`) over the same PostgreSQL and files. The proxy is in both
 * runs, so the ratio is the instances' doing. A report, not a goal: on a machine of few cores
 * the instances, PostgreSQL, the proxy and the load generator share them.
 */
export async function benchTwoInstances(server: BenchServer): Promise<void> {
  // The documents benchmark may have filled the database already.
  const [investors] = await server.services.orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from users where email like 'bench%'`);
  if (Number(investors?.n ?? 0) === 0) await populate(server);
  const env = {
    DATABASE_URL: server.databaseUrl,
    DATA_DIR: server.services.config.dataDir,
    JWT_SECRET: server.services.config.jwtSecret,
  };
  const instances = await Promise.all([ChildServer.start(env), ChildServer.start(env)]);
  const run = async (targets: string[]): Promise<LoadResult> => {
    const proxy = await startRoundRobin(targets);
    try {
      const token = await signIn({ ...server, url: proxy.url }, 'bench2@example.com');
      const url = `${proxy.url}/api/investor/documents`;
      const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
      await load(url, { connections, seconds: 3, headers }); // warm-up: each instance fills its cache
      return await load(url, { connections, seconds, headers });
    } finally {
      await proxy.close();
    }
  };
  try {
    const [first, second] = instances as [ChildServer, ChildServer];
    // One, two, then one again: the spread of the two one-instance figures says how much of the
    // difference is the machine's other load rather than the second instance.
    const one = await run([first.url]);
    const two = await run([first.url, second.url]);
    const oneAgain = await run([second.url]);
    console.log(`GET /api/investor/documents through a round-robin proxy, ${connections} connections, ${seconds} s, ${os.availableParallelism()} CPUs`);
    const line = (label: string, r: LoadResult) =>
      `  ${label}: ${r.requestsPerSecond.toFixed(0)} requests/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`;
    console.log(line('one instance ', one));
    console.log(line('two instances', two));
    console.log(line('one again    ', oneAgain));
    const best = Math.max(one.requestsPerSecond, oneAgain.requestsPerSecond);
    console.log(`  two against the better one: ${(two.requestsPerSecond / best).toFixed(2)}×`);
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
  }
}
