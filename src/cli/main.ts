/** The program's entry (bin/agent.ts imports it; `bun build --compile` starts here). */
import pkg from "../../package.json" with { type: "json" };
import { ExitCode } from "../kernel/errors.ts";
import { ignoreClosedPipes } from "./shared/io/closed-pipes.ts";
import { stdoutPipe } from "./shared/io/stdout-pipe.ts";

ignoreClosedPipes();

/** `agent --version`, `-V` and `version` alone are answered before the program and its commands load. */
const VERSION_ARGS = new Set(["--version", "-V", "version"]);

const args = process.argv.slice(2);
async function main(): Promise<number> {
  if (args.length === 1 && VERSION_ARGS.has(args[0] ?? "")) {
    process.stdout.write(`${pkg.version}\n`);
    return ExitCode.done;
  }
  const { runCli } = await import("./program.ts");
  return runCli(args);
}

const code = await main();
// Let stdout drain before exiting, so a piped answer is never cut short.
if (!stdoutPipe().broken) await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
// A reader that closed stdout early decides the code, as SIGPIPE would (docs/ci-and-json.md "Exit codes").
process.exit(stdoutPipe().broken ? ExitCode.brokenPipe : code);
