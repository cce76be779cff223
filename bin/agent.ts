// The CLI's entry under Bun: bin/agent (a sh launcher that finds Bun) runs this file.
import "../src/cli/main.ts";
