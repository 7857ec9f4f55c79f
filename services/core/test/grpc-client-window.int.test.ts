import { once } from 'node:events';
import { createServer, type Http2Session, type Settings } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { makeGenericClientConstructor, type Client } from '@grpc/grpc-js';
import { createGrpcClient } from '../src/grpc/index.js';
import { maxMessageBytes } from '../src/grpc/server.js';
import { jsonServiceDefinition } from '../src/testing/index.js';

// What a client made by createGrpcClient tells the server it may send, seen by a plain HTTP/2
// server: a window as large as the largest message, per stream and for the connection, so an
// answer never waits for the client's event loop to grant more (HTTP/2's default is 64 KiB).
const definition = jsonServiceDefinition('test.Window', { ask: {} });
const WindowClient = makeGenericClientConstructor(definition, 'Window') as unknown as new (...args: never[]) => Client;

test("a client's receive window holds the largest message, per stream and for the connection", async () => {
  const server = createServer();
  const sessions: Http2Session[] = [];
  // The client's SETTINGS frame, caught from the moment its session opens.
  const clientSettings: Promise<Settings>[] = [];
  server.on('session', (session) => {
    sessions.push(session);
    clientSettings.push(once(session, 'remoteSettings').then(([settings]) => settings as Settings));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = createGrpcClient(WindowClient as never, `127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const connected = new Promise<void>((resolve, reject) => client.waitForReady(Date.now() + 5_000, (error) => (error ? reject(error) : resolve())));
    await connected;
    const session = sessions[0]!;
    expect((await clientSettings[0]!).initialWindowSize).toBe(maxMessageBytes);
    // The connection's window grows by a WINDOW_UPDATE the client sends once connected.
    for (let waited = 0; (session.state.remoteWindowSize ?? 0) < maxMessageBytes && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(session.state.remoteWindowSize).toBeGreaterThanOrEqual(maxMessageBytes);
  } finally {
    client.close();
    for (const session of sessions) session.destroy();
    server.close();
  }
});
