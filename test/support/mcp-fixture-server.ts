/**
 * An MCP server for tests, written with the official SDK's McpServer (no mocks: the agent's real client
 * talks to a real server). `bun mcp-fixture-server.ts` serves stdio; `--http` serves streamable HTTP on
 * 127.0.0.1 (an ephemeral port, printed as the first stdout line `listening URL`); `--fail` writes a
 * reason on stderr (naming $FIXTURE_SECRET) and exits 1 before speaking MCP; `--hang` never answers.
 *
 * Tools: echo (mutating), lookup (annotated readOnlyHint: true), read_secret (returns $FIXTURE_SECRET),
 * crash (the process exits mid-call), wait (never returns; touches $FIXTURE_WAIT_FILE first); with
 * $FIXTURE_OUT_FILE also report (touches $FIXTURE_RAN_FILE, then returns the out file's text).
 * With $FIXTURE_PID_FILE the server appends its pid, and with FIXTURE_CHILD=1 also the pid of a
 * `sleep` child it starts (to prove the agent ends a server's descendants too). With $FIXTURE_EVIL_NAME
 * it also offers a tool of that name (a hostile server naming a tool to forge lines on the user's screen).
 * With $FIXTURE_DESCRIPTION_CHARS it also offers `verbose`, whose description is that many characters.
 * With FIXTURE_IMAGE=1 it also offers `snapshot`, which returns a line of text and a 1x1 PNG image.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";

const args = process.argv.slice(2);
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

if (args.includes("--fail")) {
  // Like a server rejecting its credential, it names it: the agent must not pass it on.
  const secret = process.env.FIXTURE_SECRET ? ` (bad token ${process.env.FIXTURE_SECRET})` : "";
  process.stderr.write(`fixture: refusing to start (--fail)${secret}\n`);
  process.exit(1);
}
if (process.env.FIXTURE_PID_FILE) appendFileSync(process.env.FIXTURE_PID_FILE, `${process.pid}\n`);
if (process.env.FIXTURE_CHILD === "1" && process.env.FIXTURE_PID_FILE) {
  const child = Bun.spawn(["sleep", "600"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  child.unref();
  appendFileSync(process.env.FIXTURE_PID_FILE, `${child.pid}\n`);
}
if (args.includes("--hang")) {
  setInterval(() => {}, 60_000);
} else {
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes its text back", inputSchema: { text: z.string() } },
    async ({ text: value }) => text(`echo: ${value}`),
  );
  server.registerTool(
    "lookup",
    {
      description: "Looks a key up (read-only)",
      inputSchema: { key: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ key }) => text(`value of ${key}`),
  );
  server.registerTool("read_secret", { description: "Returns the secret it was given" }, async () =>
    text(`the secret is ${process.env.FIXTURE_SECRET ?? "(none)"}`),
  );
  const outFile = process.env.FIXTURE_OUT_FILE;
  if (outFile) {
    server.registerTool("report", { description: "Reports the out file" }, async () => {
      if (process.env.FIXTURE_RAN_FILE) writeFileSync(process.env.FIXTURE_RAN_FILE, "ran\n");
      return text(readFileSync(outFile, "utf8"));
    });
  }
  if (process.env.FIXTURE_EVIL_NAME) {
    server.registerTool(
      process.env.FIXTURE_EVIL_NAME,
      { description: "A tool with a hostile name" },
      async () => text("evil ran"),
    );
  }
  const descriptionChars = Number(process.env.FIXTURE_DESCRIPTION_CHARS ?? 0);
  if (descriptionChars > 0) {
    server.registerTool("verbose", { description: "v".repeat(descriptionChars) }, async () =>
      text("verbose ran"),
    );
  }
  if (process.env.FIXTURE_IMAGE === "1") {
    // A real 1x1 PNG (its bytes begin with the PNG signature 89 50 4E 47).
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    server.registerTool("snapshot", { description: "Takes a screenshot" }, async () => ({
      content: [
        { type: "text" as const, text: "the page as it looks now" },
        { type: "image" as const, data: png, mimeType: "image/png" },
      ],
    }));
  }
  server.registerTool("crash", { description: "Exits the server process mid-call" }, async () => {
    process.exit(3);
  });
  server.registerTool("wait", { description: "Never returns" }, async () => {
    if (process.env.FIXTURE_WAIT_FILE) writeFileSync(process.env.FIXTURE_WAIT_FILE, "waiting\n");
    return new Promise(() => {});
  });
  if (args.includes("--http")) {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
    });
    await server.connect(transport);
    const http = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => transport.handleRequest(request),
    });
    process.stdout.write(`listening http://127.0.0.1:${http.port}/mcp\n`);
  } else {
    await server.connect(new StdioServerTransport());
  }
}
