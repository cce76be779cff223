import { describe, expect, test } from "bun:test";
import { expandShorthands } from "../../src/cli/program.ts";
import { jsonRequested } from "../../src/cli/shared/flags/shared-flags.ts";

const COMMANDS = ["run", "helper", "agents", "models", "sessions", "version", "help"];

describe("expandShorthands", () => {
  const cases: [string[], string[]][] = [
    [
      ["-p", "fix it"],
      ["run", "--print-mode", "fix it"],
    ],
    [
      ["--print", "fix it", "-o", "json"],
      ["run", "--print-mode", "fix it", "-o", "json"],
    ],
    [["--print=fix it"], ["run", "--print-mode", "fix it"]],
    [
      ["fix the tests", "--on-ask", "deny"],
      ["run", "fix the tests", "--on-ask", "deny"],
    ],
    // A single word is left to commander: a command, or a misspelt one that gets a suggestion.
    [["hepler"], ["hepler"]],
    [
      ["helper", "what is 2+2"],
      ["helper", "what is 2+2"],
    ],
    [["--version"], ["--version"]],
    [["-h"], ["-h"]],
    // Options with no command are the chat's (`claude -c`); with -p among them, the print run.
    [["-c"], ["chat", "-c"]],
    [
      ["-m", "opus", "hello"],
      ["chat", "-m", "opus", "hello"],
    ],
    [
      ["--resume", "ab12cd"],
      ["chat", "--resume", "ab12cd"],
    ],
    [
      ["-c", "-p", "check for type errors"],
      ["run", "--print-mode", "-c", "check for type errors"],
    ],
    [[], []],
  ];
  for (const [args, expected] of cases) {
    test(`${JSON.stringify(args)} -> ${JSON.stringify(expected)}`, () => {
      expect(expandShorthands(args, COMMANDS)).toEqual(expected);
    });
  }
});

describe("jsonRequested", () => {
  const yes = [
    ["run", "-o", "json", "x"],
    ["run", "--output", "stream-json"],
    ["run", "--output=json"],
    ["run", "-ojson"],
    ["helper", "--json", "x"],
  ];
  const no = [
    ["run", "x"],
    ["run", "-o", "text"],
    ["run", "--", "--json"],
    ["helper", "-o"],
  ];
  for (const args of yes) test(`${args.join(" ")}: JSON`, () => expect(jsonRequested(args)).toBe(true));
  for (const args of no) test(`${args.join(" ")}: not JSON`, () => expect(jsonRequested(args)).toBe(false));
});
