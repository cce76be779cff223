/**
 * The kernel's pure part: conversation and event types, error kinds, and text helpers that touch no file,
 * environment or process. File reading (files/config-file.ts), the user's folders (files/paths.ts) and
 * secret redaction (text/redact.ts) are imported from their own modules, so a module that needs only a
 * type loads no file I/O (`bun run check` holds this: docs/development.md, "The architecture check").
 */
export * from "./conversation/messages.ts";
export * from "./conversation/stream.ts";
export * from "./conversation/tools.ts";
export * from "./conversation/usage.ts";
export * from "./errors.ts";
export * from "./run-events/activity.ts";
export * from "./run-events/approvals.ts";
export * from "./run-events/checkpoint-records.ts";
export * from "./run-events/elicitation.ts";
export * from "./run-events/events.ts";
export * from "./run-events/notifications.ts";
export * from "./run-events/plan.ts";
export * from "./text/map-strings.ts";
export * from "./text/output-tail.ts";
export * from "./text/terminal-text.ts";
export * from "./text/whole-words.ts";
