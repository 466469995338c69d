import type { Language } from '@evdra/domain';
import { builtinChat } from './chat.js';
import { evaluate } from './evaluate.js';
import type { VehicleFacts } from './facts.js';
import type { AiProvider, ChatAnswer, ChatRequest, Evaluation } from './provider.js';
import { fuelText, performanceText } from './summaries.js';

/** Deterministic, explainable, offline: rubric, templates in en/ro/es and the knowledge base. */
export class BuiltinProvider implements AiProvider {
  readonly name = 'builtin' as const;
  readonly model = null;

  async evaluate(facts: VehicleFacts, language: Language): Promise<Evaluation> {
    return evaluate(facts, language);
  }

  async performance(facts: VehicleFacts, language: Language): Promise<string> {
    return performanceText(facts, language);
  }

  async fuel(facts: VehicleFacts, language: Language): Promise<string> {
    return fuelText(facts, language);
  }

  async chat(request: ChatRequest): Promise<ChatAnswer> {
    return builtinChat(request);
  }
}
