import type { CurrencyCode } from '@evdra/domain';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import { ownUnit } from '../../../lib/fuels';

/** Each fuel's quantity in its own unit, cost and fills (issue 51): "LPG: 70.00 L for 245.00 lei, 2 fill-ups". */
export function FuelTotals({
  fuels,
  currency,
}: {
  fuels: { fuelType: string; quantity: number; cost: number; fills: number }[];
  currency: CurrencyCode;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <ul className="fuel-split__fuels">
      {fuels.map((s) => (
        <li key={s.fuelType}>
          {t('analytics.fuelLine', {
            fuel: t(`fuelTypes.${s.fuelType}`),
            quantity: f.volume(s.quantity, ownUnit(s.fuelType)),
            cost: f.money(s.cost, currency),
            count: s.fills,
          })}
        </li>
      ))}
    </ul>
  );
}
