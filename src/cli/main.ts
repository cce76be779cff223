/** The program's entry (bin/agent imports it; `bun build --compile` starts here). */
import { ExitCode } from "../kernel/errors.ts";
import { runCli } from "./program.ts";
import { ignoreClosedPipes } from "./shared/closed-pipes.ts";
import { stdoutPipe } from "./shared/stdout-pipe.ts";

ignoreClosedPipes();

const code = await runCli(process.argv.slice(2));
// Let stdout drain before exiting, so a piped answer is never cut short.
if (!stdoutPipe().broken) await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
// A reader that closed stdout early decides the code, as SIGPIPE would (docs/ci-and-json.md "Exit codes").
process.exit(stdoutPipe().broken ? ExitCode.brokenPipe : code);
