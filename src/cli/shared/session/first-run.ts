/**
 * The screen `agent` / `agent run` / `agent chat` show when no provider is set up (no key found, exit 3
 * as any configuration error): the three providers' variables (src/llm/endpoints.ts NATIVE_PROVIDERS,
 * the names the code reads), a local Ollama (mentioned as detected only when it answers now), the demo
 * and `agent models`. The error stays one line (and the JSON error object); in text mode the screen
 * follows on stderr. In JSON modes (a script or CI reads the result object) stderr gets one line only,
 * naming the variables to set (docs/ci-and-json.md).
 */
import { AppError } from "../../../kernel/index.ts";
import { listEndpoints, NATIVE_PROVIDERS } from "../../../llm/endpoints.ts";
import { serverAnswers } from "../../../llm/local/server-probe.ts";
import type { AgentConfig } from "../../../sdk/config/config.ts";

/** A configuration error with a screen of help after its one-line message, and a one-line hint for JSON modes. */
export class FirstRunError extends AppError {
  constructor(
    message: string,
    readonly screen: string,
    readonly hint: string,
  ) {
    super("config", message);
  }
}

const LABELS: Record<string, string> = { anthropic: "Anthropic", openai: "OpenAI", gemini: "Gemini" };

/**
 * When resolving a model failed with a configuration error and no provider of any kind has a key, the
 * first-run screen (with a one-line message); otherwise the error unchanged.
 */
export async function firstRunError(
  error: unknown,
  env: Record<string, string | undefined>,
  config: AgentConfig,
  command: FirstRunCommand = "run",
): Promise<unknown> {
  if (!(error instanceof AppError) || error.kind !== "config") return error;
  const endpoints = listEndpoints(env, config);
  if (endpoints.some((e) => e.ready && e.keyVars.length > 0)) return error;
  // A provider declared in config is set up, even without a key: its own error says more.
  if (endpoints.some((e) => e.compatible && e.name !== "ollama")) return error;
  const ollama = endpoints.find((e) => e.name === "ollama");
  const detected = ollama?.baseUrl !== undefined && (await serverAnswers(ollama.baseUrl));
  return new FirstRunError(
    "no model provider is set up: no API key found",
    firstRunScreen(detected ? ollama?.baseUrl : undefined, command),
    firstRunHint(),
  );
}

/** The screen's gist on one line: the variables to set (`set ANTHROPIC_API_KEY, OPENAI_API_KEY or …`). */
export function firstRunHint(): string {
  const vars = NATIVE_PROVIDERS.flatMap((p) => p.keyVars);
  return `set ${vars.slice(0, -1).join(", ")} or ${vars.at(-1) ?? ""} (agent models shows what is set up)`;
}

/** The command that met the screen: its Ollama line shows that command with `-m ollama:MODEL`. */
export type FirstRunCommand = "run" | "chat" | "helper";

const OLLAMA_EXAMPLES: Record<FirstRunCommand, string> = {
  run: 'agent run -m ollama:MODEL "your goal"',
  // A chat is `agent` alone (or `agent chat`): no goal needed.
  chat: "agent -m ollama:MODEL",
  helper: 'agent helper -m ollama:MODEL "your task"',
};

/** The screen itself; `ollamaUrl` when a local Ollama answered there. */
export function firstRunScreen(ollamaUrl: string | undefined, command: FirstRunCommand = "run"): string {
  const example = OLLAMA_EXAMPLES[command];
  const width = Math.max(...NATIVE_PROVIDERS.map((p) => (LABELS[p.name] ?? p.name).length));
  const lines = ["", "Set one of these to your API key to start:"];
  for (const p of NATIVE_PROVIDERS) {
    lines.push(`  ${(LABELS[p.name] ?? p.name).padEnd(width)}  ${p.keyVars.join(" or ")}`);
  }
  lines.push("  e.g. export ANTHROPIC_API_KEY=<your key>   (in your shell profile, to keep it)", "");
  if (ollamaUrl !== undefined) {
    lines.push(`Ollama answers at ${ollamaUrl}: no key needed, pick a model you pulled:`);
    lines.push(`  ${example}      (ollama list shows them)`);
  } else {
    lines.push(`A local model instead: start Ollama, then  ${example}`);
  }
  lines.push(
    "",
    "Try it without a key:   npm run demo       (in the agent repository: a recorded run, offline)",
    "See what is set up:     agent models",
    "",
  );
  return lines.join("\n");
}
