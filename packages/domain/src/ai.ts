import { z } from 'zod';

/** Longest chat prompt the assistant accepts. */
export const CHAT_PROMPT_MAX = 2000;
/** Chat messages kept per user (older ones are dropped). */
export const CHAT_HISTORY_MAX = 200;
/** Prompts a user may send per minute. */
export const CHAT_PROMPTS_PER_MINUTE = 20;

/** POST /api/chat. */
export const ChatPrompt = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, 'Write a question.')
    .max(CHAT_PROMPT_MAX, `At most ${CHAT_PROMPT_MAX} characters.`),
});
export type ChatPrompt = z.infer<typeof ChatPrompt>;

export const ChatResponse = z.object({ response: z.string() });
export type ChatResponse = z.infer<typeof ChatResponse>;

export const ChatRole = z.enum(['user', 'ai']);
export const ChatMessage = z.object({ role: ChatRole, content: z.string() });
export type ChatMessage = z.infer<typeof ChatMessage>;

/** GET /api/ai/status: which provider answers. */
export const AiStatus = z.object({
  provider: z.enum(['builtin', 'llm']),
  /** The LLM's model name when provider is 'llm'. */
  model: z.string().nullable(),
  languages: z.array(z.enum(['en', 'ro', 'es'])),
});
export type AiStatus = z.infer<typeof AiStatus>;

/** Reply texts shorter than this are treated as "not clear" by the chat screen (spec §8). */
export const CHAT_MIN_REPLY_CHARS = 5;
