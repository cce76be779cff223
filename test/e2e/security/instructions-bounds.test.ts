/**
 * Project instructions from the side of a hostile workspace that is not a repository and lies outside
 * HOME (an unpacked tarball, a container's /workspace): an AGENTS.md symlinked to a private key outside
 * the workspace is refused with a warning and never reaches the provider, and an AGENTS.md in a parent
 * folder is not read. Before, the search (and its bound) went up to `/`.
 */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- fake-instructions-key-7731";

test("outside HOME without .git: a symlinked AGENTS.md leading out is refused and a parent's is not read", async () => {
  const ssh = join(sandbox.home, ".ssh");
  mkdirSync(ssh, { recursive: true });
  writeFileSync(join(ssh, "id_ed25519"), `${KEY}\n`);
  symlinkSync(join(ssh, "id_ed25519"), join(sandbox.workspace, "AGENTS.md"));
  writeFileSync(join(sandbox.dir, "AGENTS.md"), "PARENT-FOLDER-INSTRUCTIONS\n");
  server.enqueue({ text: "ok" });
  const result = await runAgentIn(sandbox, ["run", "hi"], anthropicEnv(sandbox, server));
  expect(result.code).toBe(0);
  const sent = JSON.stringify(server.requests[0]?.body);
  expect(sent).not.toContain("fake-instructions-key");
  expect(sent).not.toContain("PARENT-FOLDER-INSTRUCTIONS");
  expect(result.stderr).toContain(`instructions file ${join(sandbox.workspace, "AGENTS.md")} skipped`);
  expect(result.stderr).toContain("a symlink out of the workspace");
});

test("outside HOME without .git: the workspace's own AGENTS.md is still read", async () => {
  writeFileSync(join(sandbox.workspace, "AGENTS.md"), "WORKSPACE-INSTRUCTIONS\n");
  server.enqueue({ text: "ok" });
  const result = await runAgentIn(sandbox, ["run", "hi"], anthropicEnv(sandbox, server));
  expect(result.code).toBe(0);
  expect(JSON.stringify(server.requests[0]?.body)).toContain("WORKSPACE-INSTRUCTIONS");
});
