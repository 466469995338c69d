import type { Language, ShareRole } from '@evdra/domain';

/**
 * Sharing notifications in the recipient's saved language (as the reminder job and the marketplace
 * write theirs): the notification list shows title and content as stored.
 */
type Car = { make: string; model: string; year: number };
type Text = { title: string; content: string };
const car = (v: Car) => `${v.make} ${v.model} (${v.year})`;

const roleText: Record<Language, Record<ShareRole, string>> = {
  en: {
    EDITOR: 'You can see it and add fill-ups, expenses, services and insurance.',
    VIEWER: 'You can see it, its records and its reminders.',
  },
  ro: {
    EDITOR: 'Îl poți vedea și poți adăuga alimentări, cheltuieli, revizii și asigurări.',
    VIEWER: 'Îl poți vedea, împreună cu istoricul și mementourile lui.',
  },
  es: {
    EDITOR: 'Puedes verlo y añadir repostajes, gastos, revisiones y seguros.',
    VIEWER: 'Puedes verlo, con sus registros y sus recordatorios.',
  },
};

/** To the grantee: a car was shared with them, or their role on it changed. */
export function sharedText(lang: Language, owner: string, v: Car, role: ShareRole, changed = false): Text {
  const title = {
    en: changed ? 'Your access to a shared car changed' : 'A car was shared with you',
    ro: changed ? 'Accesul tău la o mașină partajată s-a schimbat' : 'O mașină a fost partajată cu tine',
    es: changed ? 'Tu acceso a un coche compartido ha cambiado' : 'Han compartido un coche contigo',
  }[lang];
  const content = {
    en: `${owner} shared the ${car(v)} with you as ${role === 'EDITOR' ? 'an editor' : 'a viewer'}.`,
    ro: `${owner} a partajat ${car(v)} cu tine ca ${role === 'EDITOR' ? 'editor' : 'vizualizator'}.`,
    es: `${owner} ha compartido el ${car(v)} contigo como ${role === 'EDITOR' ? 'editor' : 'lector'}.`,
  }[lang];
  return { title, content: `${content} ${roleText[lang][role]}` };
}

/** Why a grantee's access ended. */
export type EndReason = 'REVOKED' | 'TRANSFERRED' | 'DELETED';

/** To the grantee: their access to a shared car ended. */
export function accessEndedText(lang: Language, v: Car, reason: EndReason): Text {
  const why = {
    en: {
      REVOKED: 'The owner stopped sharing it with you.',
      TRANSFERRED: 'It was transferred to a new owner.',
      DELETED: 'The owner deleted it.',
    },
    ro: {
      REVOKED: 'Proprietarul nu o mai partajează cu tine.',
      TRANSFERRED: 'A fost transferată unui nou proprietar.',
      DELETED: 'Proprietarul a șters-o.',
    },
    es: {
      REVOKED: 'El propietario ha dejado de compartirlo contigo.',
      TRANSFERRED: 'Se ha transferido a un nuevo propietario.',
      DELETED: 'El propietario lo ha eliminado.',
    },
  }[lang][reason];
  return {
    en: {
      title: 'Access to a shared car ended',
      content: `You no longer have access to the ${car(v)}. ${why}`,
    },
    ro: { title: 'Accesul la o mașină partajată a încetat', content: `Nu mai ai acces la ${car(v)}. ${why}` },
    es: {
      title: 'Ha terminado tu acceso a un coche compartido',
      content: `Ya no tienes acceso al ${car(v)}. ${why}`,
    },
  }[lang];
}

/** To the owner: a grantee left their car. */
export function leftText(lang: Language, who: string, v: Car): Text {
  return {
    en: {
      title: 'Someone left your shared car',
      content: `${who} left the ${car(v)}: they no longer see it or its records. Share it again from its card if that was a mistake.`,
    },
    ro: {
      title: 'Cineva a renunțat la mașina ta partajată',
      content: `${who} a renunțat la ${car(v)}: nu mai vede mașina și nici istoricul ei. O poți partaja din nou din cardul ei, dacă a fost o greșeală.`,
    },
    es: {
      title: 'Alguien ha salido de tu coche compartido',
      content: `${who} ha salido del ${car(v)}: ya no lo ve ni ve sus registros. Vuelve a compartirlo desde su tarjeta si fue un error.`,
    },
  }[lang];
}
