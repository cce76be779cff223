import { afterAll, afterEach } from "bun:test";
import { type FakeLlmServer, startFakeLlmServer } from "./fake-llm-server.ts";

/**
 * One fake server for a whole test file: `const server = await fakeServerPerFile();` at its top. Cleared
 * after each test (turns a test scripted but, by design, never used must not answer the next one) and
 * closed after the last.
 */
export async function fakeServerPerFile(): Promise<FakeLlmServer> {
  const server = await startFakeLlmServer();
  afterEach(() => {
    server.clear();
  });
  afterAll(async () => {
    await server.close();
  });
  return server;
}
