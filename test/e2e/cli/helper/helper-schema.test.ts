/**
 * `agent helper --schema`: each provider's native structured-output field reaches the wire (and the fake
 * server refuses what the real API refuses), stdout holds the JSON alone, and an answer that does not
 * match is re-asked once, then exits 1 with the validation error.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

beforeEach(() => {
  expect(fx.server.pending()).toBe(0);
});

/** Closed: strict-compatible for OpenAI. */
const CLOSED = {
  type: "object",
  properties: { colour: { type: "string" }, certain: { type: "boolean" } },
  required: ["colour", "certain"],
  additionalProperties: false,
};
/** Open, with an optional field: OpenAI must get strict false, Anthropic a closed copy. */
const OPEN = {
  type: "object",
  properties: { colour: { type: "string" }, note: { type: "string" } },
  required: ["colour"],
};

function envFor(provider: "anthropic" | "openai" | "gemini"): Record<string, string> {
  if (provider === "anthropic")
    return fx.sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-schema-01",
      ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    });
  if (provider === "openai")
    return fx.sandbox.env({
      OPENAI_API_KEY: "sk-test-schema-000000001",
      OPENAI_BASE_URL: fx.server.openaiBaseUrl,
    });
  return fx.sandbox.env({
    GEMINI_API_KEY: "gemini-test-schema-01",
    GOOGLE_GEMINI_BASE_URL: fx.server.geminiBaseUrl,
  });
}

function schemaFile(name: string, schema: unknown): string {
  const file = join(fx.sandbox.dir, name);
  writeFileSync(file, JSON.stringify(schema));
  return file;
}

type Body = Record<string, unknown>;

describe("native structured output per provider", () => {
  test("anthropic: output_config.format with every object closed; stdout is the JSON alone", async () => {
    fx.server.enqueue({ text: ['{"colour": ', '"blue"}'], protocol: "anthropic" });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--schema", schemaFile("sky.json", OPEN), "Sky colour?"], {
      env: envFor("anthropic"),
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"colour":"blue"}\n');
    const body = fx.server.requests[before]?.body as { output_config: { format: Body } };
    expect(body.output_config.format).toMatchObject({
      type: "json_schema",
      schema: { type: "object", additionalProperties: false, required: ["colour"] },
    });
  });

  test("openai responses: text.format json_schema, strict only for a strict-compatible schema", async () => {
    fx.server.enqueue(
      { text: '{"colour":"blue","certain":true}', protocol: "openai-responses" },
      { text: '{"colour":"blue"}', protocol: "openai-responses" },
    );
    const before = fx.server.requests.length;
    const closed = await runAgent(["helper", "--schema", schemaFile("sky.json", CLOSED), "Sky?"], {
      env: envFor("openai"),
    });
    const open = await runAgent(["helper", "--schema", JSON.stringify(OPEN), "Sky?"], {
      env: envFor("openai"),
    });
    expect([closed.code, open.code]).toEqual([0, 0]);
    expect(closed.stdout).toBe('{"colour":"blue","certain":true}\n');
    expect(open.stdout).toBe('{"colour":"blue"}\n');
    const [first, second] = fx.server.requests
      .slice(before)
      .map((r) => (r.body as { text: { format: Body } }).text);
    expect(first?.format).toEqual({ type: "json_schema", name: "sky", schema: CLOSED, strict: true });
    expect(second?.format).toEqual({ type: "json_schema", name: "answer", schema: OPEN, strict: false });
  });

  test("gemini: JSON mime type and responseJsonSchema", async () => {
    fx.server.enqueue({ text: '{"colour":"blue"}', protocol: "gemini" });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--schema", JSON.stringify(OPEN), "Sky?"], {
      env: envFor("gemini"),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"colour":"blue"}\n');
    const body = fx.server.requests[before]?.body as { generationConfig: Body };
    expect(body.generationConfig).toMatchObject({
      responseMimeType: "application/json",
      responseJsonSchema: OPEN,
    });
  });

  test("openai-compatible server: Chat Completions response_format", async () => {
    mkdirSync(join(fx.sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(
      join(fx.sandbox.configDir, "agent", "config.yaml"),
      `providers:\n  local:\n    kind: openai-compatible\n    base_url: ${fx.server.openaiBaseUrl}\n`,
    );
    try {
      fx.server.enqueue({ text: '{"colour":"blue","certain":false}', protocol: "openai" });
      const before = fx.server.requests.length;
      const result = await runAgent(
        ["helper", "--model", "local:llama3.2", "--schema", JSON.stringify(CLOSED), "Sky?"],
        { env: fx.sandbox.env() },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('{"colour":"blue","certain":false}\n');
      const body = fx.server.requests[before]?.body as { response_format: Body };
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: { name: "answer", schema: CLOSED, strict: true },
      });
    } finally {
      writeFileSync(join(fx.sandbox.configDir, "agent", "config.yaml"), "");
    }
  });
});

describe("checking the answer", () => {
  test("a non-matching answer is re-asked once with the validation error, then accepted", async () => {
    fx.server.enqueue({ text: "It is blue." }, { text: '```json\n{"colour":"blue"}\n```' });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--schema", JSON.stringify(OPEN), "Sky?"], {
      env: envFor("anthropic"),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"colour":"blue"}\n');
    const requests = fx.server.requests.slice(before);
    expect(requests).toHaveLength(2);
    const resent = JSON.stringify(requests[1]?.body);
    expect(resent).toContain("It is blue.");
    expect(resent).toContain("does not match the required JSON schema");
  });

  test("--json: answer holds the checked JSON as text", async () => {
    fx.server.enqueue({ text: '{ "colour" : "blue" }' });
    const result = await runAgent(["helper", "--json", "--schema", JSON.stringify(OPEN), "Sky?"], {
      env: envFor("anthropic"),
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).answer).toBe('{"colour":"blue"}');
  });

  test("still not matching after the re-ask: exit 1, the validation error on stderr, nothing on stdout", async () => {
    fx.server.enqueue({ text: '{"colour": 7}' }, { text: '{"hue": "blue"}' });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--schema", JSON.stringify(OPEN), "Sky?"], {
      env: envFor("anthropic"),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("does not match --schema");
    expect(result.stderr).toContain("must have required property 'colour'");
    expect(fx.server.requests.length - before).toBe(2);
  });

  test("--tools: the schema rides along with the tools and shapes the final answer", async () => {
    writeFileSync(join(fx.sandbox.dir, "sky.txt"), "the sky is blue\n");
    fx.server.enqueue(
      { toolCalls: [{ name: "read_file", args: { path: "sky.txt" } }] },
      { text: '{"colour":"blue"}' },
    );
    const before = fx.server.requests.length;
    const result = await runAgent(
      ["helper", "--tools", "read_file", "--schema", JSON.stringify(OPEN), "What colour per sky.txt?"],
      { env: envFor("anthropic"), cwd: fx.sandbox.dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"colour":"blue"}\n');
    for (const request of fx.server.requests.slice(before)) {
      const body = request.body as { tools?: unknown[]; output_config?: unknown };
      expect(body.tools?.length).toBeGreaterThan(0);
      expect(body.output_config).toBeDefined();
    }
  });

  test("--tools on a Gemini model before 3: no JSON mime type beside function tools; the answer is still checked", async () => {
    writeFileSync(join(fx.sandbox.dir, "sky.txt"), "the sky is blue\n");
    fx.server.enqueue(
      { toolCalls: [{ name: "read_file", args: { path: "sky.txt" } }], protocol: "gemini" },
      { text: "blue", protocol: "gemini" },
      { text: '{"colour":"blue"}', protocol: "gemini" },
    );
    const before = fx.server.requests.length;
    const result = await runAgent(
      [
        "helper",
        "--model",
        "gemini:gemini-2.5-flash",
        "--tools",
        "read_file",
        "--schema",
        JSON.stringify(OPEN),
        "Sky?",
      ],
      { env: envFor("gemini"), cwd: fx.sandbox.dir },
    );
    expect(result.stderr).not.toContain("unsupported");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"colour":"blue"}\n');
    const requests = fx.server.requests.slice(before);
    expect(requests).toHaveLength(3);
    for (const r of requests) {
      expect((r.body as { generationConfig?: Body }).generationConfig?.responseMimeType).toBeUndefined();
    }
  });
});

describe("budgets of a single helper call", () => {
  test("a budget spent by the first answer stops the re-ask: exit 5, and a partial answer that does not match is not printed", async () => {
    fx.server.enqueue({ text: "It is blue.", usage: { input: 400, output: 100 } });
    const before = fx.server.requests.length;
    const result = await runAgent(
      ["helper", "--schema", JSON.stringify(OPEN), "--max-tokens", "100", "Sky?"],
      { env: envFor("anthropic") },
    );
    expect(result.code).toBe(5);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("token budget of 100 spent (500 tokens used)");
    expect(fx.server.requests.length - before).toBe(1);
  });

  test("an output-limit continuation is not sent once --max-budget-usd is spent; the partial answer is printed", async () => {
    fx.server.enqueue({ text: "The sky is", stopReason: "max_tokens", usage: { input: 1000, output: 1000 } });
    const result = await runAgent(["helper", "--max-budget-usd", "0.0001", "Sky?"], {
      env: envFor("anthropic"),
    });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe("The sky is\n");
    expect(result.stderr).toContain("cost budget of $0.0001 spent");
  });
});

describe("bad --schema values exit 2 naming the problem", () => {
  const cases = [
    { value: "missing.json", expect: "--schema missing.json: cannot read the file" },
    { value: "{not json", expect: "--schema: not valid JSON" },
    { value: '{"type":"nope"}', expect: "--schema: not a valid JSON schema" },
  ];
  for (const c of cases) {
    test(c.value, async () => {
      const result = await runAgent(["helper", "--schema", c.value, "hi"], { env: envFor("anthropic") });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(c.expect);
      expect(result.stdout).toBe("");
    });
  }
});
