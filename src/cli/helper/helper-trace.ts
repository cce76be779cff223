/**
 * The traces of a single-call `agent helper` (no `--tools`): it runs no agent loop and so emits no
 * events; the spans are built from the events such a run would have (session_start, plan_start,
 * plan_end, session_end of one `helper` agent), redacted like every event.
 */
import {
  type AgentEvent,
  type EventDataMap,
  type EventKind,
  makeEvent,
  type RunResult,
} from "../../kernel/index.ts";
import type { Redactor } from "../../kernel/text/redact.ts";
import type { Telemetry } from "../shared/session/run-telemetry.ts";
import type { HelperOutcome } from "./helper-output.ts";

type ErrorKind = NonNullable<RunResult["error"]>["kind"];

export function traceSingleCall(
  telemetry: Telemetry,
  call: { prompt: string; outcome: HelperOutcome; startedAt: number; redactor: Redactor },
): void {
  const { outcome, startedAt } = call;
  const who = { agent: "root", name: "helper", depth: 0 };
  const send = <K extends EventKind>(kind: K, data: EventDataMap[K], time: number) => {
    const event = makeEvent(who, kind, data);
    event.time = time;
    telemetry.onEvent(call.redactor.redactValue(event as AgentEvent));
  };
  const endedAt = Date.now();
  const base = { agentName: "helper", model: outcome.model, cwd: process.cwd(), sessionId: "" };
  send("session_start", { ...base, goal: call.prompt }, startedAt);
  send("plan_start", { turn: 1, model: outcome.model, provider: outcome.provider }, startedAt);
  send(
    "plan_end",
    {
      turn: 1,
      stopReason: outcome.error ? `error:${outcome.error.kind}` : outcome.finishReason,
      usage: outcome.usage,
      text: outcome.answer,
      toolCalls: [],
    },
    endedAt,
  );
  send(
    "session_end",
    {
      status: outcome.status,
      finishReason: outcome.finishReason,
      answer: outcome.answer,
      sessionId: "",
      usage: [
        {
          agent: "root",
          name: "helper",
          depth: 0,
          model: outcome.model,
          usage: outcome.usage,
          costUsd: outcome.costUsd,
          subtree: { usage: outcome.usage, costUsd: outcome.costUsd },
        },
      ],
      // The helper's error kinds are the run's (provider error kinds, config, ...), as a string there.
      ...(outcome.error ? { error: { ...outcome.error, kind: outcome.error.kind as ErrorKind } } : {}),
    },
    endedAt,
  );
}
