/**
 * The approve / reject pair of a review form (withdrawals, identity reviews): approve submits the
 * form, reject calls `onReject`; both wait while the decision is sent.
 */
export function DecisionActions({
  approve,
  reject,
  pending,
  onReject,
  testIdPrefix,
}: {
  approve: string;
  reject: string;
  pending: boolean;
  onReject: () => void;
  testIdPrefix: string;
}) {
  return (
    <div className="decision__actions">
      <button
        type="submit"
        className="button button--primary"
        disabled={pending}
        data-testid={`${testIdPrefix}-approve`}
      >
        {approve}
      </button>
      <button
        type="button"
        className="button button--danger"
        disabled={pending}
        onClick={onReject}
        data-testid={`${testIdPrefix}-reject`}
      >
        {reject}
      </button>
    </div>
  );
}
