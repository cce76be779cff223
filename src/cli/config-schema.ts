/**
 * The zod schema of `$XDG_CONFIG_HOME/agent/config.yaml`. Loaded only when a config file exists
 * (see config.ts), so a run without config never pays for zod.
 */
import { z } from "zod";
import { REASONING_EFFORTS } from "../kernel/stream.ts";
import { SANDBOX_MODES } from "../tools/sandbox-settings.ts";

const modelList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error:
    "expected a model name or a list of model names (a tier entry such as claude-haiku-5-5 or ollama:llama3.2)",
});

const RESERVED = new Set(["anthropic", "openai", "gemini", "google"]);

const compatibleProvider = z.strictObject({
  kind: z.literal("openai-compatible", {
    error: "expected kind: openai-compatible (the only kind config can add)",
  }),
  base_url: z.url({ error: "expected base_url: an http(s) URL such as http://localhost:11434/v1" }),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected api_key_env: the name of an environment variable" })
    .optional(),
  // Send reasoning back as `reasoning_content` on assistant turns (DeepSeek-style thinking servers).
  send_reasoning_content: z.boolean({ error: "expected send_reasoning_content: true or false" }).optional(),
});

const effort = z.enum(REASONING_EFFORTS as [string, ...string[]], {
  error: `expected a reasoning effort: ${REASONING_EFFORTS.join(", ")}`,
});

const ruleList = z.array(z.string().min(1), { error: "expected a list of rules such as exec:git status" });

export const configSchema = z.strictObject({
  models: z
    .strictObject({ fast: modelList.optional(), good: modelList.optional(), best: modelList.optional() })
    .optional(),
  reasoning_effort: z
    .strictObject({ fast: effort.optional(), good: effort.optional(), best: effort.optional() })
    .optional(),
  providers: z
    .record(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9_-]*$/i, { error: "expected a provider name of letters, digits, - and _" })
        .refine((name) => !RESERVED.has(name.toLowerCase()), {
          error: "anthropic, openai, gemini and google are built in; choose another name",
        }),
      compatibleProvider,
    )
    .optional(),
  rules: z
    .strictObject({ allow: ruleList.optional(), ask: ruleList.optional(), deny: ruleList.optional() })
    .optional(),
  defaults: z
    .strictObject({
      agent: z.string().min(1).optional(),
      on_ask: z.enum(["deny", "fail", "allow"], { error: "expected on_ask: deny, fail or allow" }).optional(),
      fallback: z.boolean({ error: "expected fallback: true or false" }).optional(),
      compact_threshold: z
        .number({ error: "expected compact_threshold: a number above 0 and at most 1 (e.g. 0.8)" })
        .gt(0, { error: "expected compact_threshold: a number above 0 and at most 1 (e.g. 0.8)" })
        .max(1, { error: "expected compact_threshold: a number above 0 and at most 1 (e.g. 0.8)" })
        .optional(),
      max_budget_usd: z
        .number({ error: "expected max_budget_usd: a positive number of US dollars, e.g. 0.50" })
        .positive({ error: "expected max_budget_usd: a positive number of US dollars, e.g. 0.50" })
        .optional(),
      max_tokens: z
        .number({ error: "expected max_tokens: a positive whole number of tokens" })
        .int({ error: "expected max_tokens: a positive whole number of tokens" })
        .positive({ error: "expected max_tokens: a positive whole number of tokens" })
        .optional(),
    })
    .optional(),
  sandbox: z
    .strictObject({
      mode: z.enum(SANDBOX_MODES, { error: `expected mode: ${SANDBOX_MODES.join(", ")}` }).optional(),
      network: z.boolean({ error: "expected network: true or false" }).optional(),
      required: z.boolean({ error: "expected required: true or false" }).optional(),
    })
    .optional(),
});

export type RawConfig = z.infer<typeof configSchema>;
