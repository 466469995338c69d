import type { ChatMessage, Language } from '@evdra/domain';
import type { UserFacts, VehicleFacts } from './facts.js';

/** What the chat remembers between turns (kept with each AI message). */
export type ChatContext = { intent?: string; vehicleIds?: number[]; month?: string };

export type ChatRequest = {
  prompt: string;
  language: Language;
  facts: UserFacts;
  /** The conversation so far, oldest first (the new prompt not included). */
  history: ChatMessage[];
  /** The context of the previous answer, for follow-ups such as "and the other car?". */
  context: ChatContext | undefined;
};

export type ChatAnswer = { text: string; context: ChatContext; intent: string };
export type Evaluation = { score: number; reason: string };

/** Writes every AI text of the app. Numbers come only from the facts it is given. */
export interface AiProvider {
  readonly name: 'builtin' | 'llm';
  readonly model: string | null;
  evaluate(facts: VehicleFacts, language: Language): Promise<Evaluation>;
  performance(facts: VehicleFacts, language: Language): Promise<string>;
  fuel(facts: VehicleFacts, language: Language): Promise<string>;
  chat(request: ChatRequest): Promise<ChatAnswer>;
}
