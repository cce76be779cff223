/** The program's entry (bin/agent.ts imports it; `bun build --compile` starts here). */
import pkg from "../../package.json" with { type: "json" };
import { ExitCode } from "../kernel/errors.ts";
import { stderr, stdout } from "./shared/io/std-streams.ts";

/** `agent --version`, `-V` and `version` alone are answered before the program and its commands load. */
const VERSION_ARGS = new Set(["--version", "-V", "version"]);

const args = process.argv.slice(2);
async function main(): Promise<number> {
  if (args.length === 1 && VERSION_ARGS.has(args[0] ?? "")) {
    stdout.write(`${pkg.version}\n`);
    return ExitCode.done;
  }
  // Everything else (commander, the command table) loads only past `--version`.
  const [{ runCli }, { hideSecretsFromEnviron }] = await Promise.all([
    import("./program.ts"),
    import("../tools/exec/hidden-environ.ts"),
  ]);
  // Before any command runs: the keys' values leave this process's /proc/PID/environ (they stay in
  // process.env), so no command run without a sandbox can read them there (hidden-environ.ts).
  await hideSecretsFromEnviron();
  return runCli(args);
}

const code = await main();
// Let stdout and stderr drain before exiting, so a piped answer is never cut short.
await Promise.all([stdout.flushed(), stderr.flushed()]);
// A reader that closed stdout early decides the code, as SIGPIPE would (docs/ci-and-json.md "Exit codes").
process.exit(stdout.broken ? ExitCode.brokenPipe : code);
