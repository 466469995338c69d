import { EXPENSE_TYPES, type Expense } from '@evdra/domain';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { Alert } from '../../../components/Card';
import { errorText } from '../../../lib/api';
import { todayIso, useFormat } from '../../../lib/format';
import { useRecordMutations, useRecordScope } from '../api';
import { type FieldDef, type FormValues, RecordFormModal } from '../components/RecordFormModal';
import { ownedVehicles, RecordsLayout, VehicleTag } from '../components/RecordsLayout';
import { makeChecks, num } from '../validation';

type Editing = { mode: 'add' } | { mode: 'edit'; record: Expense } | null;

export default function ExpensesPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { vehicleId } = useParams();
  const scope = useRecordScope<Expense>('expenses', vehicleId, (r) => r.date);
  const { create, update, remove } = useRecordMutations<Expense>('expenses');
  const [editing, setEditing] = useState<Editing>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const failure = (err: unknown) => t('records.error', { message: errorText(err) });
  const check = makeChecks(t);
  const owned = ownedVehicles(scope);
  const chooseVehicle = !scope.single && editing?.mode === 'add';

  const fields: FieldDef[] = [
    ...(chooseVehicle
      ? [
          {
            name: 'vehicleId',
            label: t('records.vehicle'),
            type: 'select' as const,
            options: owned.map((v) => ({ value: String(v.id), label: `${v.make} ${v.model}` })),
          },
        ]
      : []),
    {
      name: 'expenseType',
      label: t('expenses.type'),
      type: 'select',
      options: EXPENSE_TYPES.map((e) => ({ value: e, label: t(`expenseTypes.${e}`) })),
      pairWithNext: true,
    },
    { name: 'date', label: t('records.date'), type: 'date' },
    { name: 'amount', label: t('expenses.amountEur'), type: 'number', step: '0.01' },
    { name: 'description', label: t('records.description'), type: 'textarea' },
  ];

  const initial = (r: Expense | null): FormValues => ({
    vehicleId: String(scope.vehicle?.id ?? owned[0]?.id ?? ''),
    expenseType: r?.expenseType ?? 'Maintenance',
    date: r?.date ?? todayIso(),
    amount: r ? String(r.amount) : '',
    description: r?.description ?? '',
  });

  const validate = (v: FormValues) => ({
    date: check.date(v.date),
    amount: check.money(v.amount),
    description: check.maxLength(v.description, 500),
  });

  const onSubmit = async (v: FormValues, key: (body: unknown) => string) => {
    const body = {
      vehicleId: Number(v.vehicleId),
      date: String(v.date),
      expenseType: String(v.expenseType),
      amount: num(v.amount) ?? 0,
      description: String(v.description).trim(),
    };
    if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.record.id, body });
    else await create.mutateAsync({ body, idempotencyKey: key(body) });
    setEditing(null);
  };

  const onDelete = async (r: Expense) => {
    if (!window.confirm(t('expenses.confirmDelete'))) return;
    setActionError(null);
    try {
      await remove.mutateAsync(r.id);
    } catch (err) {
      setActionError(failure(err));
    }
  };

  return (
    <RecordsLayout
      scope={scope}
      section="expenses"
      addLabel={t('expenses.add')}
      onAdd={() => setEditing({ mode: 'add' })}
      errorText={failure}
      toolbar={actionError ? <Alert tone="error">{actionError}</Alert> : null}
      dialogs={
        editing ? (
          <RecordFormModal
            title={editing.mode === 'add' ? t('expenses.addTitle') : t('expenses.editTitle')}
            fields={fields}
            initial={initial(editing.mode === 'edit' ? editing.record : null)}
            validate={validate}
            onSubmit={onSubmit}
            failureText={failure}
            onClose={() => setEditing(null)}
          />
        ) : null
      }
    >
      {scope.rows.map(({ record: r, vehicle }) => {
        const name = `${t(`expenseTypes.${r.expenseType}`)} ${fmt.date(r.date)}`;
        return (
          <li key={r.id} className="record-card">
            <div className="record-card__head">
              <h2 className="record-card__title">{t(`expenseTypes.${r.expenseType}`)}</h2>
              <span className="amount amount--big">{fmt.money(r.amount)}</span>
            </div>
            {!scope.single ? <VehicleTag vehicle={vehicle} /> : null}
            <p className="muted record-card__date">{fmt.date(r.date)}</p>
            {r.description ? <p className="record-card__text">{r.description}</p> : null}
            {scope.isOwner(vehicle) ? (
              <div className="record-card__actions">
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => setEditing({ mode: 'edit', record: r })}
                  aria-label={t('expenses.editNamed', { name })}
                >
                  <Pencil size={16} aria-hidden="true" />
                  {t('common.edit')}
                </button>
                <button
                  type="button"
                  className="btn btn--danger btn--small"
                  onClick={() => void onDelete(r)}
                  aria-label={t('expenses.deleteNamed', { name })}
                >
                  <Trash2 size={16} aria-hidden="true" />
                  {t('common.delete')}
                </button>
              </div>
            ) : null}
          </li>
        );
      })}
    </RecordsLayout>
  );
}
