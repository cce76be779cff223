/**
 * Flags and names people already type (claude -p, codex exec, gemini -p, llm): -m, -s (@file),
 * --append-system, -o, `agent -p "goal"`, `agent "goal with spaces"`, `agent version`, bare
 * `agent agents` / `agent sessions`. Without a TTY, against the fake server.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { runAgent, withFakeServerAndSandbox } from "../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

function keyed(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-flags-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
}

/** The system prompt and first user text of the last request the fake server saw. */
function lastRequest(): { model: string; system: string; user: string } {
  const request = fx.server.requests.at(-1);
  const body = request?.body as { system?: unknown; messages?: { content?: unknown }[] } | undefined;
  return {
    model: request?.model ?? "",
    system: JSON.stringify(body?.system ?? ""),
    user: JSON.stringify(body?.messages?.[0]?.content ?? ""),
  };
}

describe("helper", () => {
  test("-m picks the model", async () => {
    fx.server.enqueue({ text: "ok" });
    const result = await runAgent(["helper", "-m", "anthropic:claude-sonnet-5-5", "hi"], { env: keyed() });
    expect(result.code).toBe(0);
    expect(lastRequest().model).toBe("claude-sonnet-5-5");
  });

  test("-s replaces the built-in system prompt; --append-system adds to it; @file reads a file", async () => {
    const file = join(fx.sandbox.dir, "pirate.txt");
    writeFileSync(file, "Answer like a pirate.\n");
    fx.server.enqueue({ text: "arr" });
    expect((await runAgent(["helper", "-s", `@${file}`, "hi"], { env: keyed() })).code).toBe(0);
    const replaced = lastRequest().system;
    expect(replaced).toContain("Answer like a pirate.");
    expect(replaced).not.toContain("answer");

    fx.server.enqueue({ text: "arr" });
    expect((await runAgent(["helper", "--append-system", "Be brief.", "hi"], { env: keyed() })).code).toBe(0);
    const appended = lastRequest().system;
    expect(appended).toContain("Be brief.");
    expect(appended.length).toBeGreaterThan('"Be brief."'.length + 20);
  });

  test("-s @missing-file is a usage error (2) naming the file", async () => {
    const result = await runAgent(["helper", "-s", "@/nonexistent/sys.txt", "hi"], { env: keyed() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--system @/nonexistent/sys.txt: cannot read the file (ENOENT)");
  });
});

describe("run", () => {
  test("-m, -s and -o json together", async () => {
    fx.server.enqueue({ text: "Done." });
    const result = await runAgent(
      ["run", "-m", "anthropic:claude-sonnet-5-5", "-s", "You are a terse bot.", "-o", "json", "say done"],
      { env: keyed(), cwd: fx.sandbox.dir },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "success", answer: "Done." });
    const request = lastRequest();
    expect(request.model).toBe("claude-sonnet-5-5");
    expect(request.system).toContain("You are a terse bot.");
  });

  test('agent -p "goal" is agent run "goal"', async () => {
    fx.server.enqueue({ text: "Printed." });
    const result = await runAgent(["-p", "say printed", "-o", "json"], { env: keyed(), cwd: fx.sandbox.dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: "result", answer: "Printed." });
    expect(lastRequest().user).toContain("say printed");
  });

  test('agent "goal with spaces" is agent run "goal with spaces"', async () => {
    fx.server.enqueue({ text: "Yes." });
    const result = await runAgent(["fix the failing test"], { env: keyed(), cwd: fx.sandbox.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Yes.\n");
    expect(lastRequest().user).toContain("fix the failing test");
  });

  test("a misspelt one-word command is still an unknown command with a suggestion, not a goal", async () => {
    const result = await runAgent(["hepler"], { env: keyed() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'hepler'");
    expect(result.stderr).toContain("(Did you mean helper?)");
  });
});

describe("models and ollama", () => {
  test("ollama:MODEL works with no config: OLLAMA_HOST without a scheme points at the server", async () => {
    fx.server.enqueue({ text: "local answer", protocol: "openai" });
    const hostPort = new URL(fx.server.url).host; // 127.0.0.1:PORT, as people write OLLAMA_HOST
    const result = await runAgent(["helper", "-m", "ollama:llama3.2", "hi"], {
      env: fx.sandbox.env({ OLLAMA_HOST: hostPort }),
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("local answer\n");
    const request = fx.server.requests.at(-1);
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.model).toBe("llama3.2");
  });

  test("agent models lists the catalog's known models per provider, and the keyless ollama provider", async () => {
    const text = await runAgent(["models"], { env: fx.sandbox.env() });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Known chat models \(catalog/);
    expect(text.stdout).toMatch(/\n {2}anthropic +claude-[\w-]+, /);
    // Ready only when a server answers there (test/e2e/cli/models/models.test.ts pins both states).
    expect(text.stdout).toMatch(
      /ollama +(ready +no key needed; answering|unavailable no key needed; not answering); base URL http:\/\/localhost:11434\/v1 \(OLLAMA_HOST\)/,
    );
    const json = await runAgent(["models", "--json"], { env: fx.sandbox.env() });
    const report = JSON.parse(json.stdout) as { known: Record<string, string[]> };
    expect(Object.keys(report.known).sort()).toEqual(["anthropic", "gemini", "openai"]);
    expect(report.known.openai?.length).toBeGreaterThan(0);
  });
});

describe("names", () => {
  test("agent version and agent --version print the version", async () => {
    for (const args of [["version"], ["--version"]]) {
      const result = await runAgent(args, { env: fx.sandbox.env() });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${pkg.version}\n`);
    }
  });

  test("bare agent agents lists the agents; bare agent sessions lists the sessions", async () => {
    const agents = await runAgent(["agents"], { env: fx.sandbox.env(), cwd: fx.sandbox.dir });
    expect(agents.code).toBe(0);
    expect(agents.stdout).toContain("code-reader");
    const listed = await runAgent(["agents", "list"], { env: fx.sandbox.env(), cwd: fx.sandbox.dir });
    expect(agents.stdout).toBe(listed.stdout);

    // --all: the sessions were made in the fixture's workspace, and the list shows this workspace's only.
    const sessions = await runAgent(["sessions", "--all"], { env: fx.sandbox.env() });
    const sessionsList = await runAgent(["sessions", "list", "--all"], { env: fx.sandbox.env() });
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toBe(sessionsList.stdout);
    expect(sessions.stdout.length).toBeGreaterThan(0);
  });
});
