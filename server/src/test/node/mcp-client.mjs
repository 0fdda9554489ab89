// A non-Java MCP client for brain: the official TypeScript SDK connects over stdio or Streamable
// HTTP, lists the tools, runs brain_research_pack and then brain_get_many on the top keys, and
// checks that the keys are real records; then maps the collection (brain_topic_map), lists who
// and what the notes name (brain_entities) and follows one entity to its records (brain_entity).
// Exit code 0 when every check holds, 1 otherwise.
//
//   node mcp-client.mjs stdio <command> [args...]
//   node mcp-client.mjs http <url of /mcp>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
const QUESTION = "espresso grind size";
const EXPECTED_TOOLS = [
  "brain_entities", "brain_entity", "brain_get", "brain_get_many", "brain_related",
  "brain_research_pack", "brain_search", "brain_status", "brain_topic_brief", "brain_topic_map",
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
    check(JSON.stringify(names) === JSON.stringify(EXPECTED_TOOLS), "the ten brain tools are listed");
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

    const map = await client.callTool({ name: "brain_topic_map", arguments: { topics: 4 } });
    check(!map.isError, "brain_topic_map succeeds");
    const topics = map.structuredContent.topics;
    console.log("topics: " + topics.map((t) => `#${t.tag} (${t.records})`).join(", "));
    check(topics.length === 4 && topics.every((t, i) => i === 0 || topics[i - 1].records >= t.records),
      "the four most used tags, most used first");
    check(topics.some((t) => t.co_tags.length > 0 && t.links_to.length > 0),
      "topics carry co-occurring tags and link targets");
    check(map.structuredContent.connections.every((c) =>
      topics.some((t) => t.tag === c.from) && topics.some((t) => t.tag === c.to)),
      "connections join listed tags");

    const people = await client.callTool({
      name: "brain_entities",
      arguments: { type: "person", limit: 10 },
    });
    check(!people.isError, "brain_entities succeeds");
    const persons = people.structuredContent.entities;
    check(persons.length > 0 && persons.every((e) => e.type === "person" && e.source_keys.length > 0),
      `people with the records naming them (${persons.map((e) => e.name).join(", ")})`);

    const one = await client.callTool({ name: "brain_entity", arguments: { id: persons[0].id } });
    check(!one.isError, `brain_entity ${persons[0].id} succeeds`);
    const named = one.structuredContent.records.map((r) => r.key);
    check(named.length > 0 && persons[0].source_keys.every((k) => named.includes(k)),
      "the entity's records include the keys brain_entities gave");
    const tag = await client.callTool({ name: "brain_entity", arguments: { id: "tag:" + topics[0].tag } });
    check(!tag.isError && tag.structuredContent.total === topics[0].records,
      `tag:${topics[0].tag} names as many records as the map counts`);

    const unknown = await client.callTool({ name: "brain_entity", arguments: { id: "person:Nobody Atall" } });
    check(unknown.isError === true && !/Exception|\bat dev\./.test(unknown.content[0].text),
      "an unknown entity is a tool error with a plain message");
    const badType = await client.callTool({ name: "brain_entities", arguments: { type: "planet" } })
      .catch((e) => ({ isError: true, content: [{ text: String(e.message) }] }));
    check(badType.isError === true, "an unknown entity type is refused");
    console.log("all checks passed");
  } finally {
    await client.close();
  }
}

main().catch((e) => {
  console.error("FAILED: " + (e && e.stack ? e.stack : e));
  process.exit(1);
});
