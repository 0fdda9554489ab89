package dev.brain.research.agent;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which tools an agent run may see and run, by tool name. The same decision filters the schemas
 * sent to the model and guards execution: a tool the model calls anyway is refused and the refusal
 * reported to it.
 *
 * @param allow if not empty, only these tools (an allowlist); empty = every tool
 * @param deny never these tools; wins over {@code allow}
 * @param allowWrites whether tools that write may run (default false: agent runs are read-only)
 */
public record ToolPolicy(Set<String> allow, Set<String> deny, boolean allowWrites) {
  public ToolPolicy {
    allow = allow == null ? Set.of() : Set.copyOf(allow);
    deny = deny == null ? Set.of() : Set.copyOf(deny);
  }

  /** Every read-only tool. */
  public static ToolPolicy readOnly() {
    return new ToolPolicy(Set.of(), Set.of(), false);
  }

  /** This policy with an extra allowlist (a request's {@code allowed_tools}); null keeps it. */
  public ToolPolicy restrictedTo(Collection<String> allowedTools) {
    if (allowedTools == null) {
      return this;
    }
    Set<String> narrowed =
        allow.isEmpty()
            ? Set.copyOf(allowedTools)
            : Set.copyOf(allowedTools.stream().filter(allow::contains).toList());
    // An allowlist that names nothing left must still allow nothing, not everything.
    return new ToolPolicy(narrowed.isEmpty() ? Set.of("") : narrowed, deny, allowWrites);
  }

  /** This policy with more denied names. */
  public ToolPolicy denying(Collection<String> names) {
    var all = new java.util.HashSet<>(deny);
    all.addAll(names);
    return new ToolPolicy(allow, all, allowWrites);
  }

  /** Why {@code tool} may not run, or null when it may. */
  public String refusal(AgentTool tool) {
    if (deny.contains(tool.name())) {
      return "tool '" + tool.name() + "' is denied by policy";
    }
    if (!allow.isEmpty() && !allow.contains(tool.name())) {
      return "tool '" + tool.name() + "' is not in the allowed tools";
    }
    if (!tool.readOnly() && !allowWrites) {
      return "tool '" + tool.name() + "' writes, and agent runs are read-only";
    }
    return null;
  }

  /** The tools of {@code tools} this policy permits, in order. */
  public List<AgentTool> permitted(Collection<AgentTool> tools) {
    return tools.stream().filter(t -> refusal(t) == null).toList();
  }
}
