import { createServer } from 'node:http';

/**
 * While the server opens and migrates its database it cannot serve yet, but it already holds its
 * port: every request gets 503 UNAVAILABLE with Retry-After, so a load balancer polling
 * /api/health/ready (or a script polling /api/health) waits instead of seeing a refused connection.
 * `close()` frees the port for the app.
 */
export async function listenWhileStarting(port: number, host: string): Promise<{ close(): Promise<void> }> {
  const body = JSON.stringify({
    code: 'UNAVAILABLE',
    message: 'Evdra is starting: its database is being opened and migrated. Retry in a few seconds.',
  });
  const server = createServer((_req, res) => {
    res.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': '5',
      connection: 'close',
    });
    res.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
