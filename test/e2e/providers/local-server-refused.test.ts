/**
 * A local model server that is not running (issue 21, newcomer item 3): `agent helper -m ollama:MODEL`
 * against a closed port on 127.0.0.1 names the provider as the user typed it (`ollama`, not its wire
 * protocol `openai`), retries a refused connection once instead of four times, and ends with a hint that
 * says what to start. A compatible server from the config at localhost gets the same treatment.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closedPort } from "../../support/closed-port.ts";
import { makeE2eSandbox, runAgentIn } from "../support.ts";

const sandbox = makeE2eSandbox();
afterAll(() => sandbox.cleanup());

describe("a local model server that refuses the connection", () => {
  test("ollama: named as typed, one retry, a hint to start it, exit 4", async () => {
    const port = await closedPort();
    const result = await runAgentIn(
      sandbox,
      ["helper", "-m", "ollama:llama3.2", "hi"],
      sandbox.env({ OLLAMA_HOST: `127.0.0.1:${port}` }),
    );
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines.filter((line) => line.includes("; retry "))).toEqual([
      expect.stringMatching(/^agent: ollama llama3\.2: network; retry 1 in (\d+ms|\d+\.\ds)$/),
    ]);
    expect(result.stderr).not.toContain("openai");
    expect(lines.at(-1)).toContain("ollama llama3.2: network error");
    expect(lines.at(-1)).toEndWith(
      `is Ollama running at http://127.0.0.1:${port}? (start it with \`ollama serve\`)`,
    );
  });

  test("a compatible server from the config at localhost: one retry and a hint naming it", async () => {
    const port = await closedPort();
    const configDir = join(sandbox.configDir, "agent");
    mkdirSync(configDir, { recursive: true });
    writeFileSync(
      join(configDir, "config.yaml"),
      `providers:\n  lmstudio:\n    kind: openai-compatible\n    base_url: http://localhost:${port}/v1\n`,
    );
    const result = await runAgentIn(
      sandbox,
      ["helper", "--json", "-m", "lmstudio:qwen3", "hi"],
      sandbox.env(),
    );
    expect(result.code).toBe(4);
    const out = JSON.parse(result.stdout) as { status: string; error: { kind: string; message: string } };
    expect(out.status).toBe("error");
    expect(out.error.message).toContain("lmstudio qwen3: network error");
    expect(out.error.message).toEndWith(`is the lmstudio server at http://localhost:${port} running?`);
    expect(result.stderr.split("\n").filter((line) => line.includes("; retry "))).toHaveLength(1);
  });
});
