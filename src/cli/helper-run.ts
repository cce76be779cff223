/**
 * `agent helper` implementation: builds the prompt (arguments plus piped stdin), resolves the model,
 * makes one model call and prints only the answer on stdout (streamed when stdout is a terminal).
 * The model call sits in `callModel`, which a later step swaps for the agent loop (`--tools`).
 */
import {
  AppError,
  addUsage,
  emptyUsage,
  type ModelRef,
  type ProviderError,
  type ProviderNotice,
  type StreamFn,
  type Usage,
} from "../kernel/index.ts";
import { costOf } from "../llm/catalog.ts";
import { createModelClient } from "../llm/client.ts";
import { CliExit } from "./commands.ts";
import { loadConfig } from "./config.ts";
import type { HelperFlags } from "./helper-command.ts";
import defaultSystem from "./helper-system.txt" with { type: "text" };

/** What one helper model call needs. */
export interface HelperCallInput {
  stream: StreamFn;
  model: ModelRef;
  system: string;
  prompt: string;
  signal: AbortSignal;
  /** Answer text as it arrives. */
  onDelta: (delta: string) => void;
}

export type HelperCallResult =
  | { ok: true; answer: string; usage: Usage; model: string }
  | { ok: false; error: ProviderError; answer: string };

/** The helper's model call: one request, no tools. Never throws. */
export async function callModel(input: HelperCallInput): Promise<HelperCallResult> {
  let usage = emptyUsage();
  let answer = "";
  for await (const event of input.stream({
    model: input.model,
    system: input.system,
    messages: [{ role: "user", content: input.prompt }],
    tools: [],
    signal: input.signal,
  })) {
    if (event.type === "text_delta") {
      answer += event.delta;
      input.onDelta(event.delta);
    } else if (event.type === "done") {
      usage = addUsage(usage, event.usage);
      let text = "";
      for (const part of event.message.parts) if (part.type === "text") text += part.text;
      return { ok: true, answer: text || answer, usage, model: event.model || input.model.id };
    } else if (event.type === "error") {
      return { ok: false, error: event.error, answer };
    }
  }
  return {
    ok: false,
    answer,
    error: {
      kind: "truncated",
      message: `${input.model.providerName} ${input.model.id}: stream ended without a result`,
      provider: input.model.provider,
      model: input.model.id,
    },
  };
}

/** The prompt from the arguments plus piped stdin as a delimited block. Usage error when both are empty. */
export function buildPrompt(args: string[], stdinText: string): string {
  const prompt = args.join(" ").trim();
  const piped = stdinText.replace(/\s+$/, "");
  if (prompt === "" && piped.trim() === "") {
    throw new AppError("usage", "no prompt: pass it as arguments or pipe it on stdin (agent helper --help)");
  }
  if (piped.trim() === "") return prompt;
  if (prompt === "") return piped;
  return `${prompt}\n\n<stdin>\n${piped}\n</stdin>`;
}

/** A provider error as one line naming provider, model and status. */
export function describeProviderError(error: ProviderError, ref: ModelRef): string {
  const model = error.model || ref.id;
  const status = error.status !== undefined ? ` (HTTP ${error.status})` : "";
  const named =
    error.message.includes(model) &&
    (error.status === undefined || error.message.includes(String(error.status)));
  return named ? error.message : `${error.provider} ${model}${status}: ${error.message}`;
}

/** A retry or fallback notice as one stderr line. */
export function describeNotice(notice: ProviderNotice): string {
  if (notice.type === "retry") {
    const { error } = notice;
    const status = error.status !== undefined ? ` ${error.status}` : "";
    return `${error.provider} ${error.model}: ${error.kind}${status}; retry ${notice.attempt} in ${(notice.delayMs / 1000).toFixed(1)}s`;
  }
  return `${notice.from.providerName}:${notice.from.id} ${notice.error.kind}; falling back to ${notice.to.providerName}:${notice.to.id}`;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** Runs `agent helper`. Throws AppError (usage 2, config 3, provider 4) or CliExit(130) on interrupt. */
export async function runHelper(args: string[], flags: HelperFlags): Promise<void> {
  const env = process.env;
  const prompt = buildPrompt(args, await readStdin());
  const config = await loadConfig(env);
  let current: ModelRef | undefined;
  const client = createModelClient({
    env,
    config,
    workspaceRoot: process.cwd(),
    onNotice: (notice) => {
      if (notice.type === "fallback") current = notice.to;
      process.stderr.write(`agent: ${describeNotice(notice)}\n`);
    },
    ...(flags.record !== undefined ? { record: flags.record } : {}),
    ...(flags.replay !== undefined ? { replay: flags.replay } : {}),
  });
  const resolved = client.resolve(flags.model ?? flags.tier, { nameErrorKind: "usage" });
  current = resolved.ref;

  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  const streaming = process.stdout.isTTY === true && !flags.json;
  let result: HelperCallResult;
  try {
    result = await callModel({
      stream: client.stream,
      model: resolved.ref,
      system: flags.system ?? defaultSystem.trim(),
      prompt,
      signal: controller.signal,
      onDelta: (delta) => {
        if (streaming) process.stdout.write(delta);
      },
    });
  } finally {
    process.off("SIGINT", onSigint);
  }

  if (!result.ok) {
    if (streaming && result.answer !== "") process.stdout.write("\n");
    if (result.error.kind === "aborted" || controller.signal.aborted) throw new CliExit(130, "interrupted");
    throw new AppError("provider", describeProviderError(result.error, resolved.ref));
  }
  if (flags.json) {
    const used = current ?? resolved.ref;
    const info = client.info({ ...used, id: result.model });
    const output = {
      answer: result.answer,
      model: result.model,
      provider: used.providerName,
      usage: { ...result.usage, costUsd: costOf(result.usage, info) },
    };
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return;
  }
  if (streaming) {
    process.stdout.write("\n");
    return;
  }
  process.stdout.write(result.answer.endsWith("\n") ? result.answer : `${result.answer}\n`);
}
