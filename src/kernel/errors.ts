import type { ProviderKind } from "./conversation/messages.ts";

/** Classified provider failures. Only some are retried (see src/llm/retry.ts). */
export type ProviderErrorKind =
  | "auth" // 401, 403: bad or missing key
  | "bad_request" // 400, 404, 413, 422: the request itself is wrong
  | "model_unsupported" // 400/404 saying this model cannot serve this request (unknown model, unsupported parameter)
  | "context_length" // 400 saying the input is longer than the model accepts (the loop compacts once and retries)
  | "rate_limit" // 429
  | "quota" // 429 with an exhausted-quota body, 402
  | "overloaded" // 529, 503
  | "server" // 408, 409, other 5xx
  | "network" // connection refused/reset, DNS
  | "idle_timeout" // stream produced nothing for too long
  | "truncated" // stream ended without its terminal event
  | "aborted" // the caller's abort signal fired
  | "unknown";

export interface ProviderError {
  kind: ProviderErrorKind;
  /** A message a person can act on; names provider, model and status where known. */
  message: string;
  provider: ProviderKind;
  /** The provider as the user named it (`ollama`, a config name); `provider` is its wire protocol. */
  providerName?: string;
  model: string;
  status?: number;
  /** The connection was refused (ECONNREFUSED): nothing listens at the endpoint's address. */
  connectionRefused?: true;
  /** Server-requested delay before retrying, from retry-after / retry-after-ms. */
  retryAfterMs?: number;
}

/** Kinds a retry may help with (only while nothing was emitted). */
export const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  "rate_limit",
  "overloaded",
  "server",
  "network",
  "truncated",
  "idle_timeout",
]);

/** Kinds after which the next model candidate of a tier may be tried (fallback chain). */
export const FALLBACK_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  "overloaded",
  "quota",
  "rate_limit",
  "model_unsupported",
]);

/** Errors raised by the tool itself (config, specs, usage), carried as values with the facts. */
/** `state`: the state directory (sessions, cassettes) cannot be written: full, read-only or not a
 * directory. Exit 3, like configuration: the user must fix the environment (README "Exit codes"). */
export type AppErrorKind = "usage" | "config" | "spec" | "provider" | "approval" | "session" | "state";

export class AppError extends Error {
  constructor(
    readonly kind: AppErrorKind,
    message: string,
    /** `lines`: several problems (`FILE:LINE: FIELD: message` each), printed one per line. `shown`: the
     * run already printed this message on stderr (its error line), so the command's error handler adds
     * only the JSON error object, not the same line again. */
    readonly details: {
      file?: string;
      line?: number;
      field?: string;
      lines?: readonly string[];
      shown?: boolean;
    } = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** Documented process exit codes (docs/ci-and-json.md "Exit codes"). */
export const ExitCode = {
  done: 0,
  failure: 1,
  usage: 2,
  config: 3,
  provider: 4,
  limit: 5,
  approvalNeeded: 6,
  /** An unexpected exception: a bug in agent, not a failure of the agent's work. EX_SOFTWARE, "internal software
   * error", in sysexits.h (https://man.archlinux.org/man/core/man-pages/sysexits.h.3head). */
  internal: 70,
  /** SIGHUP (the terminal or SSH session closed): 128 + 1, what a shell reports for a process it hung up. */
  hangup: 129,
  interrupted: 130,
  /** stdout was closed by its reader (`agent run -o stream-json | head -1`): 128 + SIGPIPE (13), what a
   * shell reports for a process killed by SIGPIPE. */
  brokenPipe: 141,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export function exitCodeForAppError(kind: AppErrorKind): ExitCode {
  switch (kind) {
    case "usage":
    case "session":
      return ExitCode.usage;
    case "config":
    case "spec":
    case "state":
      return ExitCode.config;
    case "provider":
      return ExitCode.provider;
    case "approval":
      return ExitCode.approvalNeeded;
  }
}
