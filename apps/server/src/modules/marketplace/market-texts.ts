import type { Language } from '@evdra/domain';

/**
 * Marketplace notifications in the recipient's saved language (as the reminder job writes its
 * texts): the notification list shows title and content as stored. The chat lines
 * ('[Vehicle transferred to buyer]', '[Vehicle sold to another buyer]') are not here: both parties
 * read the same chat, and the spec writes the transfer line in English.
 */
type Car = { make: string; model: string; year: number };
type Text = { title: string; content: string };
const car = (v: Car) => `${v.make} ${v.model} (${v.year})`;

/** A message preview fits the notification list. */
const PREVIEW_MAX = 140;
const preview = (message: string) =>
  message.length > PREVIEW_MAX ? `${message.slice(0, PREVIEW_MAX - 1)}…` : message;

/** To the seller: a buyer opened a conversation about their listing. */
export function interestText(lang: Language, buyer: string, v: Car): Text {
  return {
    en: {
      title: 'New interest in your listing',
      content: `${buyer} is interested in your ${car(v)}.`,
    },
    ro: {
      title: 'Interes nou pentru anunțul tău',
      content: `${buyer} și-a arătat interesul pentru ${car(v)} din anunțul tău.`,
    },
    es: {
      title: 'Nuevo interés en tu anuncio',
      content: `${buyer} se ha interesado por tu ${car(v)}.`,
    },
  }[lang];
}

/** To the other party of a conversation: the new message, shortened. */
export function messageText(lang: Language, sender: string, message: string): Text {
  const content = preview(message);
  return {
    en: { title: `New message from ${sender}`, content },
    ro: { title: `Mesaj nou de la ${sender}`, content },
    es: { title: `Nuevo mensaje de ${sender}`, content },
  }[lang];
}

/** To every other interested buyer once the car went to someone else. */
export function soldText(lang: Language, v: Car): Text {
  return {
    en: {
      title: 'Vehicle sold',
      content: `The ${car(v)} you were interested in was sold to another buyer.`,
    },
    ro: {
      title: 'Vehicul vândut',
      content: `${car(v)} care te interesa a fost vândut altui cumpărător.`,
    },
    es: {
      title: 'Vehículo vendido',
      content: `El ${car(v)} que te interesaba se ha vendido a otro comprador.`,
    },
  }[lang];
}

/** To the buyer: the car and its records are theirs now. */
export function transferText(lang: Language, v: Car): Text {
  return {
    en: {
      title: 'Vehicle transferred to you',
      content: `The ${car(v)} is now yours, with its records, under Vehicles.`,
    },
    ro: {
      title: 'Vehicul transferat către tine',
      content: `${car(v)} este acum al tău, cu tot istoricul, în secțiunea Vehicule.`,
    },
    es: {
      title: 'Vehículo transferido a ti',
      content: `El ${car(v)} ya es tuyo, con todos sus registros, en Vehículos.`,
    },
  }[lang];
}
