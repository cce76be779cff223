/** The program's entry (bin/agent imports it; `bun build --compile` starts here). */
import { ignoreClosedPipes } from "./closed-pipes.ts";
import { runCli } from "./program.ts";

ignoreClosedPipes();

const code = await runCli(process.argv.slice(2));
// Let stdout drain before exiting, so a piped answer is never cut short.
await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
process.exit(code);
