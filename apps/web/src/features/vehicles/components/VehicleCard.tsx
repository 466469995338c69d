import { hasEngineSize, type Vehicle } from '@evdra/domain';
import {
  BarChart3,
  CalendarClock,
  Car,
  Check,
  Download,
  Eye,
  FileText,
  Fuel,
  LogOut,
  Pencil,
  Receipt,
  Share2,
  ShieldCheck,
  Sparkles,
  Upload,
  Wrench,
  X,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { PendingBadge } from '../../../components/offline/PendingBadge';
import { useFormat } from '../../../lib/format';
import { fuelsLabel } from '../../../lib/fuels';
import { useEvaluateAi } from '../api';
import '../../../components/ai.css';
import './sharing.css';

interface VehicleCardProps {
  vehicle: Vehicle;
  isAdmin: boolean;
  onEdit: () => void;
  onDelete: () => void;
  /** Opens the share dialog (shown to the owner only). */
  onShare?: () => void;
  /** Opens the import dialog for this vehicle (absent: no Import button, e.g. for a viewer). */
  onImport?: () => void;
  /** Asks to leave a car shared with the user (shown to an editor or viewer only). */
  onLeave?: () => void;
}

/** Evaluate AI: busy while the server scores; spec §8 alert on failure. */
function EvaluateButton({ vehicleId, again = false }: { vehicleId: number; again?: boolean }) {
  const { t } = useTranslation();
  const evaluate = useEvaluateAi();
  const run = () =>
    evaluate.mutate(vehicleId, {
      onError: (err) =>
        window.alert(t('ai.evaluateFailed', { message: err instanceof Error ? err.message : String(err) })),
    });
  return (
    <button
      type="button"
      className="btn btn--secondary btn--small"
      onClick={run}
      disabled={evaluate.isPending}
      aria-busy={evaluate.isPending}
    >
      <Sparkles size={16} aria-hidden="true" className={evaluate.isPending ? 'spin' : undefined} />
      {evaluate.isPending ? t('ai.evaluating') : again ? t('ai.reevaluate') : t('vehicles.evaluateAi')}
    </button>
  );
}

/**
 * One vehicle: photo, every field of spec §2, AI score, links to the five sub-pages, Edit and Delete.
 * A car shared with the user says by whom, with their role; what the role cannot do is not shown
 * (Edit, Delete, Share, Import, Evaluate AI are the owner's); instead the grantee may leave it.
 */
export function VehicleCard({
  vehicle: v,
  isAdmin,
  onEdit,
  onDelete,
  onShare,
  onImport,
  onLeave,
}: VehicleCardProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const name = `${v.make} ${v.model}`;
  const access = v.access ?? 'OWNER';
  const owns = access === 'OWNER';
  const links = [
    { to: `/analytics/${v.id}`, label: t('vehicles.links.analytics'), icon: BarChart3 },
    { to: `/insurance/${v.id}`, label: t('vehicles.links.insurance'), icon: ShieldCheck },
    { to: `/expenses/${v.id}`, label: t('vehicles.links.expenses'), icon: Receipt },
    { to: `/fuel/${v.id}`, label: t('vehicles.links.fuel'), icon: Fuel },
    { to: `/revision/${v.id}`, label: t('vehicles.links.revision'), icon: Wrench },
  ];
  return (
    <article className="vehicle-card" aria-label={name}>
      <div className="vehicle-card__media">
        {v.photoUrl ? (
          <img src={v.photoUrl} alt={t('vehicles.photoOf', { name })} loading="lazy" />
        ) : (
          <div className="vehicle-card__nophoto" aria-hidden="true">
            <Car size={48} />
          </div>
        )}
      </div>
      <div className="vehicle-card__body">
        <h2 className="vehicle-card__title">
          {name} <span className="muted">{v.year}</span> <PendingBadge row={v} />
          {owns ? null : (
            <span className={`role-badge role-badge--${access.toLowerCase()}`}>
              {access === 'EDITOR' ? (
                <Pencil size={12} aria-hidden="true" />
              ) : (
                <Eye size={12} aria-hidden="true" />
              )}
              {t(`sharing.roles.${access}`)}
            </span>
          )}
        </h2>
        {v.vin ? (
          <p className="vehicle-card__vin">
            {t('vehicles.vin')} <span translate="no">{v.vin}</span>
          </p>
        ) : null}
        {owns ? null : <p className="shared-by">{t('sharing.sharedBy', { owner: v.ownerUsername })}</p>}
        <dl className="facts">
          <div>
            <dt>{t('vehicles.fuelType')}</dt>
            <dd>{fuelsLabel(v, (f) => t(`fuelTypes.${f}`))}</dd>
          </div>
          <div>
            <dt>{t('vehicles.registration')}</dt>
            <dd>{v.registrationNumber}</dd>
          </div>
          {hasEngineSize(v) ? (
            <div>
              <dt>{t('vehicles.engineSize')}</dt>
              <dd>{t('vehicles.litres', { value: fmt.number(v.engineSize, 1) })}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('vehicles.odometer')}</dt>
            <dd>{fmt.distance(v.odometer)}</dd>
          </div>
          <div>
            <dt>{t('vehicles.aiConsentShort')}</dt>
            <dd>
              {v.aiEvaluationConsent ? (
                <span className="tick" role="img" aria-label={t('vehicles.consentYes')}>
                  <Check size={18} aria-hidden="true" />
                </span>
              ) : (
                <span className="cross" role="img" aria-label={t('vehicles.consentNo')}>
                  <X size={18} aria-hidden="true" />
                </span>
              )}
            </dd>
          </div>
          {isAdmin ? (
            <>
              <div>
                <dt>{t('vehicles.ownerId')}</dt>
                <dd>{v.ownerId}</dd>
              </div>
              <div>
                <dt>{t('vehicles.ownerUsername')}</dt>
                <dd>{v.ownerUsername}</dd>
              </div>
            </>
          ) : null}
        </dl>
        {v.aiEvaluationConsent && (owns || v.aiScore !== null) ? (
          v.aiScore !== null ? (
            <div className="ai-score-block">
              <p className="ai-score">
                <Sparkles size={16} aria-hidden="true" />
                <strong>{t('vehicles.aiScore', { score: v.aiScore })}</strong>
                {v.aiScoreReason ? <span> — {v.aiScoreReason}</span> : null}
              </p>
              {owns ? <EvaluateButton vehicleId={v.id} again /> : null}
            </div>
          ) : (
            <EvaluateButton vehicleId={v.id} />
          )
        ) : null}
        <nav className="vehicle-card__links" aria-label={t('vehicles.recordsOf', { name })}>
          {links.map(({ to, label, icon: Icon }) => (
            <Link key={to} to={to} className="chip-link">
              <Icon size={16} aria-hidden="true" />
              {label}
            </Link>
          ))}
          {/* Beside the spec's five: RCA, ITP, rovinietă, ITV… with their expiry reminders. */}
          <Link to={`/renewals/${v.id}`} className="chip-link">
            <CalendarClock size={16} aria-hidden="true" />
            {t('vehicles.links.renewals')}
          </Link>
          {/* The car's papers: talon, RCA, ITP… with their pages (issue 52). */}
          <Link to={`/documents/${v.id}`} className="chip-link">
            <FileText size={16} aria-hidden="true" />
            {t('vehicles.links.documents')}
          </Link>
        </nav>
        <div className="vehicle-card__actions">
          {owns && onShare ? (
            <CardAction
              onClick={onShare}
              label={t('sharing.share')}
              named={t('sharing.shareNamed', { name })}
              icon={Share2}
            />
          ) : null}
          {owns && onImport ? (
            <CardAction
              onClick={onImport}
              label={t('vehicles.import')}
              named={t('vehicles.importNamed', { name })}
              icon={Upload}
            />
          ) : null}
          <a
            className="btn btn--secondary btn--small"
            href={`/api/vehicles/${v.id}/export.csv`}
            download
            aria-label={t('vehicles.exportNamed', { name })}
          >
            <Download size={16} aria-hidden="true" />
            {t('vehicles.export')}
          </a>
          {!owns && onLeave ? (
            <CardAction
              onClick={onLeave}
              label={t('sharing.leave')}
              named={t('sharing.leaveNamed', { name })}
              icon={LogOut}
            />
          ) : null}
          {owns ? (
            <EditDeleteButtons
              editLabel={t('vehicles.editNamed', { name })}
              deleteLabel={t('vehicles.deleteNamed', { name })}
              onEdit={onEdit}
              onDelete={onDelete}
            />
          ) : null}
        </div>
      </div>
    </article>
  );
}

/** A small secondary button on the card: its icon, its text, and a name that says which car. */
function CardAction(o: { onClick: () => void; label: string; named: string; icon: typeof Share2 }) {
  const Icon = o.icon;
  return (
    <button type="button" className="btn btn--secondary btn--small" onClick={o.onClick} aria-label={o.named}>
      <Icon size={16} aria-hidden="true" />
      {o.label}
    </button>
  );
}
