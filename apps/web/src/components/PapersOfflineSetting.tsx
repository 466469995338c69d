import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { papersOfflineOn, setPapersOffline } from '../lib/offline/papers';
import { CheckboxField } from './Field';

/** Settings: keep the cars' papers on this device for use with no signal (off on a shared device). */
export function PapersOfflineSetting() {
  const { t } = useTranslation();
  const titleId = useId();
  const [on, setOn] = useState(papersOfflineOn);
  return (
    <section className="settings__section" aria-labelledby={titleId}>
      <h2 id={titleId} className="settings__heading">
        {t('documents.offlineTitle')}
      </h2>
      <CheckboxField
        label={t('documents.offlineSetting')}
        name="papersOffline"
        checked={on}
        onCheckedChange={(checked) => {
          setOn(checked);
          void setPapersOffline(checked);
        }}
      />
      <p className="field__hint">{t('documents.offlineHint')}</p>
    </section>
  );
}
