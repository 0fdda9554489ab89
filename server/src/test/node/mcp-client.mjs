// A non-Java MCP client for brain: the official TypeScript SDK connects over stdio or Streamable
// HTTP, lists the tools, runs brain_research_pack and then brain_get_many on the top keys, and
// checks that the keys are real records. Exit code 0 when every check holds, 1 otherwise.
//
//   node mcp-client.mjs stdio <command> [args...]
//   node mcp-client.mjs http <url of /mcp>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
const QUESTION = "espresso grind size";
const EXPECTED_TOOLS = [
  "brain_get", "brain_get_many", "brain_related", "brain_research_pack",
  "brain_search", "brain_status", "brain_topic_brief",
];

function check(condition, message) {
  if (!condition) {
    throw new Error("check failed: " + message);
  }
  console.log("ok   " + message);
}

function transport() {
  if (mode === "stdio" && rest.length > 0) {
    return new StdioClientTransport({
      command: rest[0],
      args: rest.slice(1),
      env: { ...process.env, DJL_OFFLINE: "true" },
      stderr: "inherit",
    });
  }
  if (mode === "http" && rest.length === 1) {
    return new StreamableHTTPClientTransport(new URL(rest[0]));
  }
  console.error("usage: node mcp-client.mjs stdio <command> [args...] | http <url>");
  process.exit(2);
}

async function main() {
  const client = new Client({ name: "brain-node-check", version: "1.0.0" });
  await client.connect(transport());
  try {
    const server = client.getServerVersion();
    console.log(`connected over ${mode} to ${server.name} ${server.version}`);

    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name).sort();
    console.log("tools: " + names.join(", "));
    check(JSON.stringify(names) === JSON.stringify(EXPECTED_TOOLS), "the seven brain tools are listed");
    check(tools.every((t) => t.annotations?.readOnlyHint === true && t.outputSchema),
      "every tool is read-only and has an output schema");

    const pack = await client.callTool({
      name: "brain_research_pack",
      arguments: { question: QUESTION, limit: 5 },
    });
    check(!pack.isError, "brain_research_pack succeeds");
    const evidence = pack.structuredContent.evidence;
    check(pack.structuredContent.schema_version === "research_pack.v1", "the pack is a research_pack.v1");
    check(evidence.length > 0, `the pack has evidence (${evidence.length} rows)`);
    const keys = evidence.slice(0, 3).map((row) => row.source_key);
    console.log("top keys: " + keys.join(", "));

    const fake = "note:nowhere/no-such-note.md";
    const many = await client.callTool({
      name: "brain_get_many",
      arguments: { keys: [...keys, fake], query: QUESTION, max_chars: 400 },
    });
    check(!many.isError, "brain_get_many succeeds");
    const got = many.structuredContent.records.map((r) => r.key);
    check(JSON.stringify(got) === JSON.stringify(keys), "every top key is a real record");
    check(many.structuredContent.records.every((r) => typeof r.content === "string" && r.content.length > 0),
      "each record comes with an evidence window");
    const errors = many.structuredContent.errors;
    check(errors.length === 1 && errors[0].key === fake && errors[0].code === "not_found",
      "an unknown key is reported on its own");

    const bad = await client.callTool({ name: "brain_get", arguments: { key: fake } });
    check(bad.isError === true, "brain_get on an unknown key is a tool error");
    console.log("all checks passed");
  } finally {
    await client.close();
  }
}

main().catch((e) => {
  console.error("FAILED: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
