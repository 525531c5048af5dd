import { zodResolver } from '@hookform/resolvers/zod';
import { formatMinor, type TBankCard, type TWithdrawInfoResponse } from '@sorte/contract';
import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field, messageText, SubmitButton } from '../../../components/field.tsx';
import { Icon } from '../../../components/icon.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { CURRENCY, formatMoney, formatPercent, parseAmountInput } from '../../../lib/format.ts';
import { useSubmitKey } from '../../../lib/submit-key.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useCreateWithdrawal } from '../api/create-withdrawal.ts';
import { useWithdrawCards, useWithdrawInfo } from '../api/get-withdraw-info.ts';
import { quoteWithdrawal } from '../withdraw-fee.ts';
import { type TWithdrawFormInput, type TWithdrawFormOutput, withdrawFormSchema } from '../withdraw-schema.ts';
import '../withdraw.css';

export function WithdrawPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.withdraw')} requiresLogin>
      <WithdrawContent />
    </PageFrame>
  );
}

function WithdrawContent() {
  const { t } = useTranslation();
  const info = useWithdrawInfo();
  const cards = useWithdrawCards();
  if (info.isPending || cards.isPending) return <Spinner />;
  if (info.isError || cards.isError) {
    return (
      <LoadFail
        onRetry={() => {
          void info.refetch();
          void cards.refetch();
        }}
      />
    );
  }
  return (
    <div className="withdraw">
      <section className="withdraw__balances">
        <div className="stat stat--main">
          <span className="stat__label">{t('money.withdrawable')}</span>
          <span className="stat__value" data-testid="withdrawable">
            {formatMoney(info.data.withdrawable)}
          </span>
        </div>
        <div className="stat">
          <span className="stat__label">{t('money.balance')}</span>
          <span className="stat__value">{formatMoney(info.data.balance)}</span>
        </div>
        <div className="stat">
          <span className="stat__label">{t('money.wagering_left')}</span>
          <span className="stat__value">{formatMoney(info.data.wagering_required)}</span>
        </div>
      </section>
      <WithdrawForm info={info.data} cards={cards.data.list} />
      {info.data.rules.length > 0 && (
        <section className="card">
          <h2 className="card__title">{t('money.trading_rules')}</h2>
          <ul className="withdraw__rules">
            {info.data.rules.map((rule) => (
              <li key={rule}>{rule}</li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function WithdrawForm({ info, cards }: { info: TWithdrawInfoResponse; cards: TBankCard[] }) {
  const { t } = useTranslation();
  const create = useCreateWithdrawal();
  const submitKey = useSubmitKey();
  const cardId = useId();
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  // Two-factor authentication on: the server asks the authenticator code (TOTP_REQUIRED).
  const [totp, setTotp] = useState<{ asked: boolean; code: string; error?: string }>({
    asked: false,
    code: '',
  });
  const schema = useMemo(() => withdrawFormSchema(info, t), [info, t]);
  const defaultCard = cards.find((card) => card.is_default) ?? cards[0];
  const {
    register,
    handleSubmit,
    watch,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TWithdrawFormInput, unknown, TWithdrawFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      money: '',
      member_bank_id: defaultCard ? String(defaultCard.id) : '',
      qk_pwd: '',
      qk_pwd_confirmation: '',
    },
  });
  const quote = quoteWithdrawal(parseAmountInput(String(watch('money') ?? '')), info);
  const range = { min: formatMoney(info.min_money), max: formatMoney(info.max_money) };

  const onValid = async (values: TWithdrawFormOutput) => {
    setOutcome(null);
    const card = cards.find((item) => String(item.id) === values.member_bank_id);
    const body = {
      money: formatMinor(values.money),
      member_bank_id: values.member_bank_id,
      qk_pwd: values.qk_pwd,
      ...(info.has_qk_pwd ? {} : { qk_pwd_confirmation: values.qk_pwd_confirmation }),
      payment_type: card?.account_type,
      account: card?.account,
      name: card?.name,
      member_bank_text: card ? `${card.bank_name} ${card.account_masked}` : undefined,
      cpf_id: card?.cpf_id ?? undefined,
      ...(totp.asked && totp.code.trim() ? { totp_code: totp.code.trim() } : {}),
    };
    try {
      await create.mutateAsync({ body, idempotencyKey: submitKey.for(body) });
      submitKey.done();
      const message = t('messages.withdraw_submitted');
      setOutcome({ ok: true, message });
      toast.success(message);
      reset({ money: '', member_bank_id: values.member_bank_id, qk_pwd: '', qk_pwd_confirmation: '' });
      setTotp((current) => ({ ...current, code: '', error: undefined }));
    } catch (error) {
      const message = error instanceof ApiError ? error.message : t('network-error');
      if (error instanceof ApiError) {
        if (error.errors.money) setError('money', { message: error.errors.money });
        if (error.errors.qk_pwd) setError('qk_pwd', { message: error.errors.qk_pwd });
        if (error.code === 'TOTP_REQUIRED' || error.code === 'TOTP_INVALID') {
          setTotp((current) => ({ ...current, asked: true, error: error.message }));
        }
      }
      setOutcome({ ok: false, message });
      toast.error(message);
    }
  };

  if (cards.length === 0) {
    return (
      <section className="card withdraw__no-card">
        <Icon name="bank" size={30} />
        <p>{t('money.no_card_hint')}</p>
        <Link
          to="/bank-card/add?from=withdraw"
          className="button button--primary"
          data-testid="withdraw-add-card"
        >
          {t('money.add_card')}
        </Link>
      </section>
    );
  }

  const cardError = messageText(errors.member_bank_id?.message);
  return (
    <form
      className="card form"
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(t('messages.form_invalid')))}
      aria-label={t('pages.withdraw')}
    >
      <dl className="details">
        <div>
          <dt>{t('money.currency')}</dt>
          <dd>{CURRENCY}</dd>
        </div>
      </dl>
      <div className={`field${cardError ? ' field--invalid' : ''}`}>
        <label htmlFor={cardId} className="field__label">
          {t('money.bank_card')}
        </label>
        <div className="field__control">
          <select
            id={cardId}
            className="field__select"
            data-testid="withdraw-card"
            {...register('member_bank_id')}
          >
            {cards.map((card) => (
              <option key={card.id} value={String(card.id)}>
                {card.bank_name} · {t(`money.account_types.${card.account_type}`)} {card.account_masked}
              </option>
            ))}
          </select>
        </div>
        {cardError && (
          <p className="field__error" role="alert">
            {cardError}
          </p>
        )}
        <Link to="/bank-card/add?from=withdraw" className="link-button withdraw__manage">
          {t('money.manage_cards')}
        </Link>
      </div>
      <Field
        label={t('money.amount')}
        inputMode="decimal"
        autoComplete="off"
        hint={t('money.amount_range', range)}
        maxLength={16}
        data-testid="withdraw-amount"
        error={errors.money?.message}
        {...register('money')}
      />
      <dl className="details">
        <div>
          <dt>{t('money.fee')}</dt>
          <dd data-testid="withdraw-fee">{formatMoney(quote.ok ? quote.fee : '0.00')}</dd>
        </div>
        <div className="details__total">
          <dt>{t('money.actual_receipt')}</dt>
          <dd data-testid="withdraw-actual">{formatMoney(quote.ok ? quote.actual : '0.00')}</dd>
        </div>
      </dl>
      <p className="money__note">
        {info.fee_rate === '0.00' && info.fee_min === '0.00'
          ? t('money.no_fee', { channel: info.channel.toUpperCase() })
          : t('money.fee_rule', { rate: formatPercent(info.fee_rate), min: formatMoney(info.fee_min) })}{' '}
        · {t('money.today_count', { count: info.today_count, max: info.daily_count_max })}
      </p>
      {!info.has_qk_pwd && (
        <p className="money__note" data-testid="withdraw-password-first">
          {t('money.set_password_here')}
        </p>
      )}
      <Field
        type="password"
        label={info.has_qk_pwd ? t('money.withdraw_password') : t('money.new_withdraw_password')}
        placeholder={t('money.withdraw_password_placeholder')}
        inputMode="numeric"
        autoComplete={info.has_qk_pwd ? 'off' : 'new-password'}
        maxLength={6}
        data-testid="withdraw-password"
        error={errors.qk_pwd?.message}
        {...register('qk_pwd')}
      />
      {!info.has_qk_pwd && (
        <Field
          type="password"
          label={t('money.confirm_withdraw_password')}
          placeholder={t('money.withdraw_password_placeholder')}
          inputMode="numeric"
          autoComplete="new-password"
          maxLength={6}
          data-testid="withdraw-password-confirmation"
          error={errors.qk_pwd_confirmation?.message}
          {...register('qk_pwd_confirmation')}
        />
      )}
      {totp.asked && (
        <Field
          label={t('security.totp_code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          data-testid="withdraw-totp"
          value={totp.code}
          error={totp.error}
          onChange={(event) => setTotp({ asked: true, code: event.target.value })}
        />
      )}
      {outcome && (
        <p
          className={outcome.ok ? 'withdraw__success' : 'form__alert'}
          role={outcome.ok ? 'status' : 'alert'}
          data-testid={outcome.ok ? 'withdraw-success' : 'withdraw-error'}
        >
          {outcome.message}
        </p>
      )}
      <SubmitButton label={t('money.submit_withdraw')} busy={isSubmitting} testId="withdraw-submit" />
    </form>
  );
}

export default WithdrawPage;
