/** scripts/models-snapshot.ts, run offline on a small models.dev-shaped checkout and on an api.json. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CatalogData } from "../../../src/llm/catalog/models-dev.ts";

const SCRIPT = join(import.meta.dir, "../../../scripts/models-snapshot.ts");

function run(args: string[]): { code: number; stderr: string } {
  const child = Bun.spawnSync([process.execPath, SCRIPT, ...args], { stderr: "pipe", stdout: "pipe" });
  return { code: child.exitCode, stderr: child.stderr.toString() };
}

describe("scripts/models-snapshot.ts", () => {
  test("reads providers/*/models/*.toml, inherits base_model, keeps only the fields we use", () => {
    const dir = mkdtempSync(join(tmpdir(), "models-dev-"));
    mkdirSync(join(dir, "providers/openai/models"), { recursive: true });
    mkdirSync(join(dir, "providers/anthropic/models"), { recursive: true });
    mkdirSync(join(dir, "providers/google/models"), { recursive: true });
    mkdirSync(join(dir, "models/openai"), { recursive: true });
    writeFileSync(
      join(dir, "models/openai/gpt-x.toml"),
      'name = "GPT-X"\nfamily = "gpt"\nrelease_date = "2026-05-01"\nlast_updated = "2026-05-01"\n[limit]\ncontext = 400_000\noutput = 128_000\n',
    );
    writeFileSync(
      join(dir, "providers/openai/models/gpt-x.toml"),
      'base_model = "openai/gpt-x"\nreasoning = true\ntool_call = true\nreasoning_options = [{ type = "effort", values = ["high", "none", "low"] }]\nbenchmarks = "dropped"\n[cost]\ninput = 1.25\noutput = 10.0\ncache_read = 0.125\n',
    );
    writeFileSync(
      join(dir, "providers/google/models/gemini-z.toml"),
      'name = "Gemini Z"\nreasoning = false\ntool_call = true\nstatus = "deprecated"\n[limit]\ncontext = 1_048_576\noutput = 65_536\n[cost]\ninput = 1\noutput = 2\n[[cost.tiers]]\ntier = { size = 200_000 }\ninput = 2\noutput = 4\n',
    );
    writeFileSync(join(dir, "providers/anthropic/models/bad.toml"), 'name = "no limits"\n');
    const out = join(dir, "snapshot.json");
    const result = run([dir, "--out", out, "--source", "models.dev test", "--date", "2026-07-02"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("skipped bad: limit");
    const data = JSON.parse(readFileSync(out, "utf8")) as CatalogData;
    expect(data.source).toBe("models.dev test");
    expect(data.date).toBe("2026-07-02");
    expect(data.models).toEqual([
      {
        id: "gemini-z",
        provider: "gemini",
        name: "Gemini Z",
        context: 1_048_576,
        output: 65_536,
        reasoning: false,
        toolCall: true,
        cost: { input: 1, output: 2, tiers: [{ above: 200_000, input: 2, output: 4 }] },
        status: "deprecated",
      },
      {
        id: "gpt-x",
        provider: "openai",
        name: "GPT-X",
        family: "gpt",
        context: 400_000,
        output: 128_000,
        reasoning: true,
        toolCall: true,
        cost: { input: 1.25, output: 10, cacheRead: 0.125 },
        efforts: ["none", "low", "high"],
        releaseDate: "2026-05-01",
        lastUpdated: "2026-05-01",
      },
    ]);
  });

  test("accepts an api.json; bad usage exits 2 with the usage line", () => {
    const dir = mkdtempSync(join(tmpdir(), "models-dev-"));
    const out = join(dir, "snapshot.json");
    const fixture = join(import.meta.dir, "../../fixtures/models-dev/api.json");
    expect(run([fixture, "--out", out, "--date", "2026-11-26"]).code).toBe(0);
    const data = JSON.parse(readFileSync(out, "utf8")) as CatalogData;
    expect(data.models.map((m) => m.id)).toEqual(["claude-sonnet-5-5", "gpt-7-nova"]);
    const bad = run(["--date", "yesterday", fixture]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--date yesterday: expected YYYY-MM-DD");
  });
});
