/**
 * The bounded agent loop: a tool-calling controller model over brain's read-only tools and worker
 * tools, with allow/deny policy, budgets and an honest, verified final answer.
 *
 * <p>{@link dev.brain.research.agent.AgentController} is the entry; tools implement {@link
 * dev.brain.research.agent.AgentTool}; {@link dev.brain.research.agent.ToolPolicy} decides which
 * tools the model sees and may run; {@link dev.brain.research.agent.AgentBudgets} bounds turns,
 * tool calls, kept tool output and time; {@link dev.brain.research.agent.WorkerTools} are the
 * {@code summarize} and {@code extract} tools over a cheaper worker model. A run ends in an {@link
 * dev.brain.research.agent.AgentResult} with its {@link dev.brain.research.agent.AgentStopReason}.
 */
package dev.brain.research.agent;
