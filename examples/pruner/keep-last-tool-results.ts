// A framework's default written as an OpenAI-format pruner: clear every tool result but the last 3, oldest first,
// with the placeholder LangChain's ClearToolUsesEdit leaves (Anthropic's clear_tool_uses_20250919 keeps 3 by
// default). Run it with:
//   npm run experiment -- --pruner examples/pruner/keep-last-tool-results.ts --format openai-chat \
//     --condition raw,ladder-0-3 --fixtures fixtures/canonical --out /tmp/mine
type Message = { role: string; content: string | null; tool_call_id?: string };

const KEEP = 3;

export default function keepLastToolResults(messages: Message[]): Message[] {
  const results = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const cleared = new Set(results.slice(0, Math.max(0, results.length - KEEP)));
  return messages.map((m, i) => (cleared.has(i) ? { ...m, content: '[cleared]' } : m));
}
