import { type AiStatus, CHAT_HISTORY_MAX, type Language, type Vehicle } from '@evdra/domain';
import type { VehicleFacts } from '../../ai/facts.js';
import type { FactsRepo } from '../../ai/facts.repo.js';
import { languageFromHeader } from '../../ai/format.js';
import type { AiProvider } from '../../ai/provider.js';
import { AppError, notFound } from '../../lib/errors.js';
import { utcDays } from '../../lib/utc-day.js';
import type { Principal } from '../auth/auth.service.js';
import type { VehiclesService } from '../vehicles/vehicles.service.js';
import type { ChatRepo } from './chat.repo.js';

type Deps = {
  facts: FactsRepo;
  chats: ChatRepo;
  provider: AiProvider;
  vehicles: VehiclesService;
  now: () => Date;
  /** Called after a vehicle's score changed (empties the vehicle-list caches). */
  changed: () => void;
};

/**
 * AI evaluation, summaries and the virtual-mechanic chat. A vehicle's owner and those it is shared
 * with (editors, viewers) read its summaries and ask the mechanic about it; only the owner evaluates
 * it (the score is written on the vehicle: 403 for an editor or viewer). Anyone else gets 404,
 * administrators included (as before sharing). Evaluation and summaries need the vehicle's
 * aiEvaluationConsent (409 AI_CONSENT_REQUIRED). Answers are in the user's saved language, else
 * the request's Accept-Language, else English.
 */
export class AiService {
  constructor(private readonly d: Deps) {}

  status(): AiStatus {
    return { provider: this.d.provider.name, model: this.d.provider.model, languages: ['en', 'ro', 'es'] };
  }

  async evaluate(p: Principal, vehicleId: number, acceptLanguage?: string): Promise<Vehicle> {
    await this.d.vehicles.owned(p, vehicleId);
    const [facts, language] = await this.consentedFacts(p, vehicleId, acceptLanguage);
    const { score, reason, basis } = await this.d.provider.evaluate(facts, language);
    await this.d.facts.saveScore(vehicleId, Math.max(1, Math.min(10, Math.round(score))), reason, basis);
    this.d.changed();
    return this.d.vehicles.presented(p, await this.d.vehicles.visible(p, vehicleId));
  }

  async performance(p: Principal, vehicleId: number, acceptLanguage?: string): Promise<string> {
    const [facts, language] = await this.consentedFacts(p, vehicleId, acceptLanguage);
    return this.d.provider.performance(facts, language);
  }

  async fuel(p: Principal, vehicleId: number, acceptLanguage?: string): Promise<string> {
    const [facts, language] = await this.consentedFacts(p, vehicleId, acceptLanguage);
    return this.d.provider.fuel(facts, language);
  }

  /** The caller's conversation with the mechanic, oldest first, as ChatMessage[] JSON (UTF-8). */
  historyJson(p: Principal): Promise<Buffer> {
    return this.d.chats.historyJson(p.userId);
  }

  clearHistory(p: Principal): Promise<void> {
    return this.d.chats.clear(p.userId);
  }

  async chat(p: Principal, prompt: string, acceptLanguage?: string): Promise<string> {
    const [language, history, context, vehicles] = await Promise.all([
      this.language(p, acceptLanguage),
      this.d.chats.history(p.userId),
      this.d.chats.lastContext(p.userId),
      this.d.facts.forOwner(p.userId, this.today()),
    ]);
    const answer = await this.d.provider.chat({
      prompt,
      language,
      history,
      context,
      facts: { language, today: this.today(), vehicles },
    });
    await this.d.chats.append(p.userId, prompt, answer.text, answer.context, CHAT_HISTORY_MAX);
    return answer.text;
  }

  /** The vehicle's facts and the answer's language (one read); owner or share (404), consent 409. */
  private async consentedFacts(
    p: Principal,
    vehicleId: number,
    acceptLanguage?: string,
  ): Promise<[VehicleFacts, Language]> {
    const found = await this.d.facts.forVehicle(p.userId, vehicleId, this.today());
    if (!found) throw notFound('Vehicle');
    if (!found.facts.vehicle.aiEvaluationConsent)
      throw new AppError(409, 'AI_CONSENT_REQUIRED', 'Turn on AI evaluation consent for this vehicle first.');
    return [found.facts, answerLanguage(found.readerLanguage, acceptLanguage)];
  }

  private async language(p: Principal, acceptLanguage?: string): Promise<Language> {
    return answerLanguage(await this.d.chats.language(p.userId), acceptLanguage);
  }

  private today(): string {
    return this.utcDay(this.d.now().getTime());
  }
  private readonly utcDay = utcDays();
}

/** The user's saved language, else the request's Accept-Language, else English. */
const answerLanguage = (saved: Language | null | undefined, acceptLanguage?: string): Language =>
  saved ?? languageFromHeader(acceptLanguage) ?? 'en';
