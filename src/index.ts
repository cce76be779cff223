/**
 * The library entry: `import { createSession } from "agent"`. A session runs goals with agent specs,
 * model resolution, approval rules, an approver callback, hooks, and an event stream that knows nothing
 * of terminals. `agent run` is built on the same function.
 */
export type { HookSpec, HooksConfig } from "./agents/hooks/hooks.ts";
export type { AgentSpec } from "./agents/spec/spec.ts";
export { defineSpec } from "./agents/spec/spec.ts";
export type { RunLimits } from "./agents/types.ts";
export type {
  AgentEvent,
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  ElicitationAnswer,
  ElicitationQuestion,
  EventKind,
  FieldDraft,
  FormField,
  Message,
  ResponseSchema,
  RunResult,
} from "./kernel/index.ts";
export {
  type ApproveFn,
  createSession,
  type RunOptions,
  type Session,
  type SessionOptions,
} from "./sdk/session.ts";
export type { SandboxMode, SandboxSettings } from "./tools/exec/sandbox-settings.ts";
