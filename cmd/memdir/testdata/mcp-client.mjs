// Conformance run of memdir's MCP server with the official TypeScript SDK
// client. Usage: node mcp-client.mjs stdio|http; the server is described by
// MEMDIR_BIN, MEMDIR_PROJECT, MEMDIR_HOME (stdio) or MEMDIR_URL and
// MEMDIR_TOKEN (http). Prints "ok" or exits 1 naming the failed check.
import { existsSync, readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const mode = process.argv[2];
const fail = (what, got) => {
  console.error(`FAIL ${mode}: ${what}\n${JSON.stringify(got, null, 2)}`);
  process.exit(1);
};
const check = (ok, what, got) => { if (!ok) fail(what, got); };
const text = (r) => (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");

let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({
    command: process.env.MEMDIR_BIN, args: ["mcp"], cwd: process.env.MEMDIR_PROJECT,
    env: { HOME: process.env.MEMDIR_HOME, PATH: process.env.PATH }, stderr: "inherit",
  });
} else {
  transport = new StreamableHTTPClientTransport(new URL(process.env.MEMDIR_URL), {
    requestInit: { headers: { Authorization: `Bearer ${process.env.MEMDIR_TOKEN}` } },
  });
}
const client = new Client({ name: "memdir-conformance", version: "1.0.0" });
await client.connect(transport);

const info = client.getServerVersion();
check(info && info.name === "memdir", "server name", info);
check(client.getServerCapabilities()?.tools, "tools capability", client.getServerCapabilities());

const tools = (await client.listTools()).tools.map((t) => t.name).sort();
const want = ["diary_write", "memory_consolidate", "memory_feedback", "memory_forget", "memory_get", "memory_list", "memory_recall", "memory_save", "memory_update", "memory_verify", "transcript_search"];
check(JSON.stringify(tools) === JSON.stringify(want), "tool list", tools);
for (const t of (await client.listTools()).tools) {
  check(t.inputSchema?.type === "object" && t.description.length > 40, `schema and description of ${t.name}`, t);
}
const resources = (await client.listResources()).resources.map((r) => r.uri);
check(resources.includes("memdir://index"), "resource list", resources);
const templates = (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
check(templates.includes("memdir://memory/{file}"), "resource templates", templates);

const suffix = mode; // one run per transport, each on its own memories
const saves = [
  { type: "feedback", name: `Tabs not spaces ${suffix}`, description: "Indent Go code with tabs, never spaces", body: "gofmt decides." },
  { type: "project", name: `Deploy freeze ${suffix}`, description: "No deploys on Fridays before the mobile release", body: "Ask the release manager." },
  { type: "reference", name: `Latency dashboard ${suffix}`, description: "grafana/d/api-latency is what on-call watches", body: "Check it after touching handlers." },
];
const files = [];
for (const s of saves) {
  const r = await client.callTool({ name: "memory_save", arguments: s });
  check(!r.isError && r.structuredContent?.created === true && r.structuredContent.file.endsWith(".md"), `save ${s.name}`, r);
  files.push(r.structuredContent.file);
}
const bad = await client.callTool({ name: "memory_save", arguments: { type: "nope", name: "x", description: "y", body: "z" } });
check(bad.isError === true, "a bad type is a tool error", bad);

const rec = await client.callTool({ name: "memory_recall", arguments: { query: "can we deploy on friday?" } });
check(!rec.isError && rec.structuredContent.files.length === 1 && rec.structuredContent.files[0] === files[1], "recall picks the deploy freeze", rec);
check(text(rec).includes("verify the files") && text(rec).includes("No deploys on Fridays"), "recall text has the memory and the caveat", rec);
const none = await client.callTool({ name: "memory_recall", arguments: { query: "write a haiku about autumn leaves" } });
check(!none.isError && none.structuredContent.files.length === 0, "recall abstains", none);

const upd = await client.callTool({ name: "memory_update", arguments: { name: files[0], description: "Indent Go with tabs; YAML with two spaces" } });
check(!upd.isError, "update", upd);
const got = await client.callTool({ name: "memory_get", arguments: { name: files[0] } });
check(got.structuredContent.description === "Indent Go with tabs; YAML with two spaces" && got.structuredContent.body.includes("gofmt decides"), "get after update", got);

const list = await client.callTool({ name: "memory_list", arguments: {} });
for (const f of files) check(list.structuredContent.memories.some((m) => m.file === f), `list has ${f}`, list);

const fb = await client.callTool({ name: "memory_feedback", arguments: { name: files[1], verdict: "helpful", note: "kept us from a Friday deploy" } });
check(!fb.isError && fb.structuredContent.file === files[1] && fb.structuredContent.usage.helpful === 1 && fb.structuredContent.usage.notes[0].by === "mcp", "feedback", fb);
const badfb = await client.callTool({ name: "memory_feedback", arguments: { name: files[1], verdict: "maybe" } });
check(badfb.isError === true, "a bad verdict is a tool error", badfb);
const stats = await client.callTool({ name: "memory_list", arguments: { stats: true } });
check(stats.structuredContent.memories.some((m) => m.file === files[1] && m.usage?.helpful === 1 && m.usage.injected === 0), "list with stats", stats);
check(!list.structuredContent.memories.some((m) => m.usage), "no stats unless asked", list);

const idx = await client.readResource({ uri: "memdir://index" });
check(idx.contents[0].text.includes(`(${files[2]})`), "index resource lists the memories", idx);
const file = await client.readResource({ uri: `memdir://memory/${files[1]}` });
check(file.contents[0].text.includes("type: project"), "memory resource", file);

const fg = await client.callTool({ name: "memory_forget", arguments: { name: files[2] } });
check(!fg.isError && fg.structuredContent.file === files[2], "forget", fg);
const after = await client.callTool({ name: "memory_get", arguments: { name: files[2] } });
check(after.isError === true, "a forgotten memory is not found", after);

const plan = await client.callTool({ name: "memory_consolidate", arguments: {} });
check(!plan.isError && plan.structuredContent.memories === 2 && Array.isArray(plan.structuredContent.plan.ops) &&
  plan.content[0].text.includes("Dream plan for"), "consolidation plan", plan);

const ts = await client.callTool({ name: "transcript_search", arguments: { pattern: "connection pool exhausted" } });
check(!ts.isError && ts.structuredContent.results.length === 1 && ts.structuredContent.results[0].role === "user", "transcript search", ts);
const badre = await client.callTool({ name: "transcript_search", arguments: { pattern: "(", regex: true } });
check(badre.isError === true, "a bad regexp is a tool error", badre);

const dw = await client.callTool({ name: "diary_write", arguments: {
  task: `Fix the flaky login test ${suffix}`, outcome: "success", date: "2026-11-20",
  errors: ["--- FAIL: TestLogin (5.00s)"], worked: ["Wait for the session cookie before asserting"],
} });
check(!dw.isError && dw.structuredContent.stem === `2026-11-20-fix-the-flaky-login-test-${suffix}` &&
  existsSync(dw.structuredContent.path) && readFileSync(dw.structuredContent.path, "utf8").includes("source: agent"), "diary_write writes the diary", dw);
const baddw = await client.callTool({ name: "diary_write", arguments: { task: "", outcome: "great" } });
check(baddw.isError === true && text(baddw).includes("task is empty") && text(baddw).includes("outcome"), "a bad diary is a tool error naming every problem", baddw);

await client.close();
console.log("ok");
