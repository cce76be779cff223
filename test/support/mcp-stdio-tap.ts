/**
 * A stdio pass-through for tests: `bun mcp-stdio-tap.ts LOG_FILE COMMAND ARGS...` runs the real server
 * COMMAND and copies every line the client writes to it into LOG_FILE as well, so a test sees on the
 * server's side what the client sent (`notifications/cancelled`, progress tokens, capabilities). Ends
 * when the client closes stdin or the server exits; the server is killed with it.
 */
import { appendFileSync } from "node:fs";

const [log, command, ...rest] = process.argv.slice(2);
if (log === undefined || command === undefined) {
  process.stderr.write("usage: mcp-stdio-tap.ts LOG_FILE COMMAND [ARGS...]\n");
  process.exit(2);
}
const server = Bun.spawn([command, ...rest], { stdin: "pipe", stdout: "inherit", stderr: "inherit" });
process.on("SIGTERM", () => {
  server.kill("SIGKILL");
  process.exit(0);
});
let pending = "";
for await (const chunk of Bun.stdin.stream()) {
  const text = new TextDecoder().decode(chunk);
  pending += text;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) appendFileSync(log, `${line}\n`);
  server.stdin.write(chunk);
  server.stdin.flush();
}
server.stdin.end();
await server.exited;
