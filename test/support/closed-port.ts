/**
 * A port on 127.0.0.1 that nothing listens on: one the system just gave out and took back, so a connection
 * to it is refused at once (tests of a server that is down, never a wait for a timeout).
 */
export async function closedPort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port;
  if (port === undefined) throw new Error("Bun.serve gave no port");
  await server.stop(true);
  return port;
}
