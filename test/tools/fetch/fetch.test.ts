import { afterAll, describe, expect, test } from "bun:test";
import { createFetchTool } from "../../../src/tools/fetch/fetch.ts";
import { htmlToText } from "../../../src/tools/fetch/html-text.ts";
import { checkHost, ForbiddenAddressError, isForbiddenAddress } from "../../../src/tools/fetch/net-guard.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

// The only network these tests use is this server on 127.0.0.1. Requests to other addresses must be
// refused by the guard before any connection is attempted; the short timeout keeps a regression from hanging.
const hits: string[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(request): Response {
    const url = new URL(request.url);
    hits.push(url.pathname);
    const port = Number(url.port);
    const redirect = (to: string) => new Response(null, { status: 302, headers: { location: to } });
    switch (url.pathname) {
      case "/page":
        return new Response(
          "<html><head><title>Hello page</title><style>p{color:red}</style></head><body><h1>Welcome</h1>" +
            "<p>First &amp; second.</p><script>alert(1)</script><ul><li>one</li><li>two</li></ul></body></html>",
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      case "/host":
        return new Response(`host=${request.headers.get("host")}`);
      case "/json":
        return Response.json({ ok: true });
      case "/missing":
        return new Response("nope", { status: 404 });
      case "/to-metadata":
        return redirect("http://169.254.169.254/latest/meta-data/");
      case "/to-private":
        return redirect("http://10.0.0.1/");
      case "/to-localhost":
        return redirect(`http://localhost:${port}/page`);
      case "/to-page":
        return redirect("/page");
      case "/loop":
        return redirect("/loop");
      default:
        return new Response("not found", { status: 404 });
    }
  },
});
const base = `http://127.0.0.1:${server.port}`;
const root = await tempDir();
afterAll(async () => {
  server.stop(true);
  await cleanup(root);
});

const fetchTool = createFetchTool({ timeoutMs: 2_000 });
const allowLocal = () => contextFor(root, { allowPrivateOrigins: [base] });

describe("isForbiddenAddress", () => {
  test.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "100.64.0.1",
    "100.127.255.255",
    "169.254.169.254",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "[::1]",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.1.2.3",
    "::ffff:a9fe:a9fe",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "not-an-ip",
  ])("%s is forbidden", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  test.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
  ])("%s is allowed", (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe("checkHost", () => {
  test("refuses a name when any resolved address is forbidden", async () => {
    const lookup = async () => ["93.184.216.34", "10.0.0.7"];
    await expect(checkHost("mixed.example", { lookup })).rejects.toThrow("mixed.example (10.0.0.7)");
  });

  test("accepts a name resolving only to public addresses, and an allow-listed host", async () => {
    await checkHost("public.example", { lookup: async () => ["93.184.216.34"] });
    await checkHost("intranet.example", {
      lookup: async () => ["10.0.0.7"],
      allowHosts: ["INTRANET.example"],
    });
  });

  test("resolves localhost for real and refuses it", async () => {
    await expect(checkHost("localhost")).rejects.toBeInstanceOf(ForbiddenAddressError);
  });
});

describe("fetch", () => {
  test.each([
    [`${base}/page`, "127.0.0.1"],
    [`http://localhost:${server.port}/page`, "localhost"],
    ["http://10.0.0.1/", "10.0.0.1"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    [`http://[::1]:${server.port}/page`, "::1"],
    [`http://[::ffff:127.0.0.1]:${server.port}/page`, "::ffff:7f00:1"],
    [`http://2130706433:${server.port}/page`, "127.0.0.1"],
  ])("refuses %s without an allow rule", async (url, named) => {
    const before = hits.length;
    const out = await fetchTool.run({ url }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain(`refusing to fetch ${named}`);
    expect(hits.length).toBe(before);
  });

  test("an allow rule for the host lifts the refusal; HTML is reduced to text", async () => {
    const out = await fetchTool.run({ url: `${base}/page` }, await allowLocal());
    expect(out.isError).toBe(false);
    expect(out.modelText).toContain("Status: 200");
    expect(out.modelText).toContain("Hello page\n\n# Welcome\n\nFirst & second.");
    expect(out.modelText).toContain("- one\n- two");
    expect(out.modelText).not.toContain("alert(1)");
    expect(out.modelText).not.toContain("color:red");
    expect(out.display).toStartWith(`GET ${base}/page -> 200 text/html`);
  });

  test("the factory's allow-list works like the context's", async () => {
    const tool = createFetchTool({ allowPrivateOrigins: [base], timeoutMs: 2_000 });
    const out = await tool.run({ url: `${base}/json` }, await contextFor(root));
    expect(out.modelText).toContain('{"ok":true}');
  });

  test("plain http connects to the address the guard resolved, keeping the Host header", async () => {
    // The system resolver never resolves .test names: only the injected lookup can lead to this server.
    const seen: string[] = [];
    const tool = createFetchTool({
      timeoutMs: 2_000,
      lookup: async (host) => {
        seen.push(host);
        return ["127.0.0.1"];
      },
    });
    const url = `http://pinned.test:${server.port}/host`;
    const refused = await tool.run({ url }, await contextFor(root));
    expect(refused.modelText).toContain("refusing to fetch pinned.test (127.0.0.1)");
    const allowed = await tool.run(
      { url },
      await contextFor(root, { allowPrivateOrigins: [`http://pinned.test:${server.port}`] }),
    );
    expect(allowed.modelText).toContain(`host=pinned.test:${server.port}`);
    expect(allowed.modelText).toContain(`URL: ${url}`);
    expect(seen).toEqual(["pinned.test", "pinned.test"]);
  });

  test("a redirect from an allowed host to a forbidden address is refused at that hop", async () => {
    for (const [path, named] of [
      ["/to-metadata", "169.254.169.254"],
      ["/to-private", "10.0.0.1"],
    ] as const) {
      const out = await fetchTool.run({ url: `${base}${path}` }, await allowLocal());
      expect(out.isError).toBe(true);
      expect(out.modelText).toContain(`refusing to fetch ${named}`);
    }
  });

  test("a redirect to localhost is refused: the allow rule names 127.0.0.1, not localhost", async () => {
    const before = hits.filter((h) => h === "/page").length;
    const out = await fetchTool.run({ url: `${base}/to-localhost` }, await allowLocal());
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("refusing to fetch localhost");
    expect(hits.filter((h) => h === "/page").length).toBe(before);
  });

  test("redirects are followed (at most 5)", async () => {
    const ok = await fetchTool.run({ url: `${base}/to-page` }, await allowLocal());
    expect(ok.modelText).toContain(`URL: ${base}/page`);
    const loop = await fetchTool.run({ url: `${base}/loop` }, await allowLocal());
    expect(loop.isError).toBe(true);
    expect(loop.modelText).toContain("too many redirects");
  });

  test("an HTTP error status is an error result; other schemes are refused", async () => {
    const missing = await fetchTool.run({ url: `${base}/missing` }, await allowLocal());
    expect(missing.isError).toBe(true);
    expect(missing.modelText).toContain("Status: 404");
    const file = await fetchTool.run({ url: "file:///etc/passwd" }, await contextFor(root));
    expect(file.modelText).toContain("only http and https URLs");
  });

  test("policy target and preview are the URL", async () => {
    const ctx = await contextFor(root);
    expect(await fetchTool.policyTarget({ url: "https://example.com/x" }, ctx)).toEqual({
      targets: ["https://example.com/x"],
      sensitive: false,
    });
    expect(await fetchTool.preview({ url: "https://example.com/x" }, ctx)).toBe("https://example.com/x");
  });
});

describe("htmlToText", () => {
  test("keeps link targets and decodes entities", () => {
    expect(htmlToText('<p>See <a href="https://x.dev/a">the docs</a> &#8212; &lt;ok&gt;</p>')).toBe(
      "See the docs (https://x.dev/a) — <ok>",
    );
  });
});
