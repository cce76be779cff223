/**
 * Files named on the command line, from the side of a hostile workspace: `-s @FILE`, `--append-system
 * @FILE` and `--schema FILE` go through the guarded reader. A FIFO is refused at once (before, the read
 * waited for a writer forever); a symlink in the workspace leading out (to a fake private key) is refused
 * and its target never reaches the provider; a path outside the workspace that the user typed is read.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  endsOrHung,
  freshServerAndSandbox,
  type RunOutput,
  spawnAgent,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const HUNG_AFTER_MS = 20_000;
const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- fake-key-material-0042";

function agent(args: string[]): Promise<RunOutput> {
  return endsOrHung(
    spawnAgent(args, { env: anthropicEnv(sandbox, server), cwd: sandbox.workspace }),
    HUNG_AFTER_MS,
    ": it waited on the file",
  );
}

function fifo(name: string): void {
  expect(Bun.spawnSync(["mkfifo", join(sandbox.workspace, name)]).exitCode).toBe(0);
}

/** A fake ~/.ssh/id_ed25519 outside the workspace, and `name` in the workspace linking to it. */
function linkToSecret(name: string): void {
  const ssh = join(sandbox.dir, "home-ssh");
  mkdirSync(ssh, { recursive: true });
  writeFileSync(join(ssh, "id_ed25519"), `${SECRET}\n`);
  symlinkSync(join(ssh, "id_ed25519"), join(sandbox.workspace, name));
}

describe.each([
  ["helper", "-s"],
  ["helper", "--append-system"],
  ["run", "-s"],
  ["run", "--append-system"],
])("agent %s %s @FILE", (command, flag) => {
  test(
    "a FIFO is refused at once: exit 2 naming it, no model call",
    async () => {
      fifo("prompt.md");
      const result = await agent([command, flag, "@prompt.md", "hi"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${flag === "-s" ? "--system" : flag} @prompt.md: a FIFO`);
      expect(server.requests).toHaveLength(0);
    },
    HUNG_AFTER_MS + 10_000,
  );

  test("a symlink in the workspace leading out is refused; the secret never reaches the provider", async () => {
    linkToSecret("prompt.md");
    const result = await agent([command, flag, "@prompt.md", "hi"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("a symlink out of the workspace");
    expect(result.stderr).not.toContain("fake-key-material");
    expect(server.requests).toHaveLength(0);
  });
});

describe("agent helper --schema FILE", () => {
  test(
    "a FIFO is refused at once with exit 2",
    async () => {
      fifo("schema.json");
      const result = await agent(["helper", "--schema", "schema.json", "hi"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--schema schema.json: a FIFO");
    },
    HUNG_AFTER_MS + 10_000,
  );

  test("a symlink in the workspace leading out is refused", async () => {
    linkToSecret("schema.json");
    const result = await agent(["run", "--schema", "schema.json", "hi"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("a symlink out of the workspace");
  });
});

test("a file outside the workspace that the user named is read", async () => {
  const outside = join(sandbox.dir, "team-prompt.md");
  writeFileSync(outside, "You are the team's reviewer.\n");
  server.enqueue({ text: "ok" });
  const result = await agent(["helper", "-s", `@${outside}`, "hi"]);
  expect(result.code).toBe(0);
  expect(JSON.stringify(server.requests[0]?.body)).toContain("You are the team's reviewer.");
});
