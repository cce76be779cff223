/**
 * A base URL that cannot work says so at once, naming what to fix: a variable without a scheme
 * (`ANTHROPIC_BASE_URL=127.0.0.1:PORT`) is a configuration error naming it (exit 3, no request made); a
 * server that answers `200 {}` (no such API: an SDK reads it as an empty stream) is one provider error
 * naming the variable (exit 4), not four `truncated` retries.
 */
import { afterEach, expect, test } from "bun:test";
import { anthropicEnv } from "../../e2e/support.ts";
import { inProcessFixture, runInProcess } from "./in-process.ts";

const fixture = inProcessFixture();
let notAnApi: ReturnType<typeof Bun.serve> | undefined;
afterEach(async () => {
  await notAnApi?.stop(true);
  notAnApi = undefined;
});

test("ANTHROPIC_BASE_URL without a scheme: exit 3 naming the variable, before any request", async () => {
  const { server, sandbox } = fixture;
  const port = new URL(server.anthropicBaseUrl).port;
  const env = anthropicEnv(sandbox, server, { ANTHROPIC_BASE_URL: `127.0.0.1:${port}` });
  const result = await runInProcess(["run", "hi", "-o", "json"], { env, cwd: sandbox.workspace });
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(`ANTHROPIC_BASE_URL is "127.0.0.1:${port}", which is not an http(s) URL`);
  expect(result.stderr).toContain(`http://127.0.0.1:${port}`);
  expect(JSON.parse(result.stdout)).toMatchObject({
    status: "error",
    error: { kind: "config" },
    exit_code: 3,
  });
  expect(server.requests).toHaveLength(0);
});

test("a server answering 200 {}: one clear provider error naming the variable, no retries", async () => {
  let requests = 0;
  notAnApi = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      requests += 1;
      return Response.json({});
    },
  });
  const { server, sandbox } = fixture;
  const env = anthropicEnv(sandbox, server, { ANTHROPIC_BASE_URL: `http://127.0.0.1:${notAnApi.port}` });
  const result = await runInProcess(["run", "hi"], { env, cwd: sandbox.workspace });
  expect(result.code).toBe(4);
  expect(result.stderr).toContain("the server answered without a stream of events");
  expect(result.stderr).toContain("Check ANTHROPIC_BASE_URL");
  expect(result.stderr).not.toContain("retry");
  expect(result.stderr).not.toContain("truncated");
  expect(requests).toBe(1);
});
