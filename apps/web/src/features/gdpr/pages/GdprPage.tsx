import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { PageCard } from '../../../components/Card';

const SECTIONS = ['who', 'what', 'why', 'where', 'rights', 'keep', 'contact'] as const;
const RIGHTS = ['access', 'rectification', 'erasure', 'portability', 'objection'] as const;

/** The data-protection agreement users consent to (opens in a new tab from the forms' links). */
export default function GdprPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();

  // A page opened in a new tab has no in-app history: 'Back' goes home then.
  const goBack = () => {
    if (location.key !== 'default') navigate(-1);
    else navigate('/');
  };

  return (
    <PageCard
      title={t('gdpr.title')}
      actions={
        <button type="button" className="btn btn--secondary" onClick={goBack}>
          <ArrowLeft size={18} aria-hidden="true" />
          {t('common.back')}
        </button>
      }
    >
      <div className="prose">
        <p className="muted">{t('gdpr.intro')}</p>
        {SECTIONS.map((s) => (
          <section key={s}>
            <h2>{t(`gdpr.${s}.title`)}</h2>
            <p>{t(`gdpr.${s}.body`)}</p>
            {s === 'rights' ? (
              <>
                <ul>
                  {RIGHTS.map((r) => (
                    <li key={r}>{t(`gdpr.rights.${r}`)}</li>
                  ))}
                </ul>
                <p>{t('gdpr.rights.self')}</p>
              </>
            ) : null}
          </section>
        ))}
      </div>
    </PageCard>
  );
}
