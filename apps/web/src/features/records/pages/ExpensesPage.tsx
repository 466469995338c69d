import { EXPENSE_TYPES, type Expense } from '@evdra/domain';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { Column } from '../../../components/DataTable';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { currencyOf } from '../../../lib/units';
import { type Row, useRecordScope } from '../api';
import { RecordCardActions } from '../components/RecordCardActions';
import {
  CreatedBy,
  ownedVehicles,
  RecordsLayout,
  VehicleTag,
  vehicleColumn,
} from '../components/RecordsLayout';
import { type FieldDef, recordMoney, vehicleChoice } from '../components/recordFields';
import { useRecordActions } from '../useRecordActions';

export default function ExpensesPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { vehicleId } = useParams();
  const scope = useRecordScope<Expense>('expenses', vehicleId, (r) => r.date);
  const failure = (err: unknown) => t('records.error', { message: errorText(err) });
  const actions = useRecordActions<Expense>('expenses', {
    confirmDelete: t('expenses.confirmDelete'),
    failure,
  });
  const owned = ownedVehicles(scope);

  const fields: FieldDef[] = [
    ...vehicleChoice(!scope.single && actions.adding, t('records.vehicle'), owned),
    {
      name: 'expenseType',
      label: t('expenses.type'),
      type: 'select',
      options: EXPENSE_TYPES.map((e) => ({ value: e, label: t(`expenseTypes.${e}`) })),
      pairWithNext: true,
    },
    { name: 'date', label: t('records.date'), type: 'date' },
    { name: 'amount', label: t('expenses.amount'), type: 'number', step: '0.01', measure: 'money' },
    { name: 'currency', label: t('units.currency'), type: 'currency' },
    { name: 'description', label: t('records.description'), type: 'textarea' },
  ];

  const initial = (r: Expense | null) => ({
    vehicleId: r?.vehicleId ?? scope.vehicle?.id ?? owned[0]?.id,
    expenseType: r?.expenseType ?? ('Maintenance' as const),
    date: r?.date ?? todayIso(),
    amount: r?.amount,
    description: r?.description ?? '',
    ...recordMoney(r),
  });

  const type = (r: Expense) => t(`expenseTypes.${r.expenseType}`);
  const ownerActions = ({ record: r, vehicle }: Row<Expense>) => {
    if (!scope.isOwner(vehicle)) return null;
    const name = `${type(r)} ${fmt.date(r.date)}`;
    return (
      <RecordCardActions
        actions={actions}
        record={r}
        editLabel={t('expenses.editNamed', { name })}
        deleteLabel={t('expenses.deleteNamed', { name })}
      />
    );
  };
  const columns: Column<Row<Expense>>[] = [
    {
      label: t('records.date'),
      cell: (row) => (
        <>
          {fmt.date(row.record.date)}
          <CreatedBy row={row} />
        </>
      ),
    },
    ...vehicleColumn(scope, t('records.vehicle')),
    { label: t('expenses.type'), cell: ({ record: r }) => type(r) },
    {
      label: t('records.description'),
      cell: ({ record: r }) => <span className="record-card__text">{r.description}</span>,
    },
    {
      label: t('expenses.amount'),
      numeric: true,
      cell: ({ record: r }) => fmt.money(r.amount, currencyOf(r, fmt.currency)),
    },
    { label: t('records.actions'), cell: ownerActions },
  ];

  return (
    <RecordsLayout
      scope={scope}
      section="expenses"
      addLabel={t('expenses.add')}
      actions={actions}
      errorText={failure}
      columns={columns}
      form={{
        addTitle: t('expenses.addTitle'),
        editTitle: t('expenses.editTitle'),
        fields,
        schema: 'expenses',
        initial,
      }}
      card={(row) => {
        const r = row.record;
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{type(r)}</h2>
              <span className="amount amount--big">{fmt.money(r.amount, currencyOf(r, fmt.currency))}</span>
            </div>
            {!scope.single ? <VehicleTag vehicle={row.vehicle} /> : null}
            <CreatedBy row={row} />
            <p className="muted record-card__date">{fmt.date(r.date)}</p>
            {r.description ? <p className="record-card__text">{r.description}</p> : null}
            {ownerActions(row)}
          </li>
        );
      }}
    />
  );
}
