import { zodResolver } from '@hookform/resolvers/zod';
import { formatMinor, type TPaymentChannelsResponse } from '@sorte/contract';
import i18next from 'i18next';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Field, SubmitButton } from '../../../components/field.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ZLocalMoneyInput } from '../../../lib/amount-field.ts';
import { ApiError } from '../../../lib/api-client.ts';
import {
  currencySymbol,
  formatAmount,
  formatMoney,
  formatPercent,
  parseAmountInput,
} from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { LoadFail } from '../../../components/load-fail.tsx';
import { useCreateRechargeOrder } from '../api/create-recharge-order.ts';
import { usePaymentChannels, usePaymentMethods } from '../api/get-payment-channels.ts';
import { amountMinorOf, rechargeBreakdown, withinBounds } from '../recharge-amount.ts';
import '../recharge.css';

type TChannel = TPaymentChannelsResponse['list'][number];

/** Whether the catalogue explains a channel (an operator's own channel may have no words of ours). */
const i18nHas = (key: string) => i18next.exists(key);

export function RechargePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <PageFrame title={t('pages.recharge')} requiresLogin>
      {params.get('welcome') === '1' && (
        <section className="card money__welcome" data-testid="recharge-welcome">
          <h2 className="card__title">{t('money.welcome_title')}</h2>
          <p>{t('money.welcome_text')}</p>
        </section>
      )}
      <RechargeContent />
    </PageFrame>
  );
}

function RechargeContent() {
  const { t } = useTranslation();
  const methods = usePaymentMethods();
  const [methodChoice, setMethodChoice] = useState<string | null>(null);
  const method = methodChoice ?? methods.data?.list[0]?.payment_type ?? null;
  const channels = usePaymentChannels(method);
  const [channelChoice, setChannelChoice] = useState<number | null>(null);
  const channel =
    channels.data?.list.find((item) => item.id === channelChoice) ?? channels.data?.list[0] ?? null;

  if (methods.isPending || (method !== null && channels.isPending)) return <Spinner />;
  if (methods.isError || channels.isError) {
    return (
      <LoadFail
        onRetry={() => {
          void methods.refetch();
          void channels.refetch();
        }}
      />
    );
  }
  if (!method || !channel) return <EmptyState message={t('empty.payment_methods')} icon="wallet" />;

  return (
    <div className="money">
      <section className="card">
        <h2 className="card__title">{t('money.method')}</h2>
        <div className="choice-grid">
          {methods.data.list.map((item) => (
            <button
              key={item.payment_type}
              type="button"
              aria-pressed={item.payment_type === method}
              className={`choice${item.payment_type === method ? ' is-active' : ''}`}
              data-testid={`payment-method-${item.payment_type}`}
              onClick={() => {
                setMethodChoice(item.payment_type);
                setChannelChoice(null);
              }}
            >
              {/* The limits are the channel's, said once under the amount (the method's span them all). */}
              <strong>{item.name}</strong>
            </button>
          ))}
        </div>
        <h2 className="card__title money__subtitle">{t('money.channel')}</h2>
        <div className="choice-grid">
          {channels.data?.list.map((item) => (
            <button
              key={item.id}
              type="button"
              aria-pressed={item.id === channel.id}
              className={`choice${item.id === channel.id ? ' is-active' : ''}`}
              data-testid={`payment-channel-${item.id}`}
              onClick={() => setChannelChoice(item.id)}
            >
              <strong>{t(`money.channels.${item.code}`, { defaultValue: item.name })}</strong>
              {i18nHas(`money.channel_hints.${item.code}`) && (
                <small>{t(`money.channel_hints.${item.code}`)}</small>
              )}
              {item.bonus_rate !== '0.00' && (
                <small className="choice__bonus">
                  {t('money.bonus_rate', { rate: formatPercent(item.bonus_rate) })}
                </small>
              )}
            </button>
          ))}
        </div>
      </section>
      <RechargeForm key={channel.id} channel={channel} />
    </div>
  );
}

/** The smallest quick pick within the channel's limits, in the reader's digits; empty without one. */
function openingAmount(channel: TChannel): string {
  const preset = channel.presets.find((amount) =>
    withinBounds(amountMinorOf(amount) ?? 0n, channel.min_money, channel.max_money),
  );
  return preset ? formatAmount(preset) : '';
}

function RechargeForm({ channel }: { channel: TChannel }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateRechargeOrder();
  const range = { min: formatMoney(channel.min_money), max: formatMoney(channel.max_money) };
  const schema = useMemo(
    () =>
      z.object({
        money: ZLocalMoneyInput('amount').refine(
          (minor) => withinBounds(minor, channel.min_money, channel.max_money),
          {
            error: t('money.amount_out_of_range', {
              min: formatMoney(channel.min_money),
              max: formatMoney(channel.max_money),
            }),
          },
        ),
      }),
    [channel, t],
  );
  const {
    register,
    handleSubmit,
    setValue,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    // A first amount is chosen for the player (the smallest quick pick the channel takes), as
    // leading sites do: one tap on "Deposit now" and the QR code is there.
    defaultValues: { money: openingAmount(channel) },
  });
  const typed = String(watch('money') ?? '');
  const minor = amountMinorOf(parseAmountInput(typed));
  const breakdown = minor === null ? null : rechargeBreakdown(minor, channel);

  const onValid = async (values: z.output<typeof schema>) => {
    try {
      const order = await create.mutateAsync({
        money: formatMinor(values.money),
        payment_id: channel.id,
        payment_type: channel.payment_type,
      });
      navigate(`/recharge-payment?order_no=${encodeURIComponent(order.order_no)}`);
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      // A refusal about the amount (its bounds, a responsible-gaming deposit limit naming the limit
      // and when it resets) stays under the amount; anything else is a toast.
      const money = error.errors.money ?? (error.code.startsWith('RG_') ? error.message : undefined);
      if (money) setError('money', { message: money });
      else toast.error(error.message);
    }
  };

  return (
    <form
      className="card form"
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(t('messages.form_invalid')))}
      aria-label={t('pages.recharge')}
    >
      <Field
        label={t('money.amount')}
        inputMode="decimal"
        autoComplete="off"
        hint={t('money.amount_range', range)}
        maxLength={16}
        data-testid="recharge-amount"
        error={errors.money?.message}
        leading={
          <span className="field__prefix" aria-hidden="true">
            {currencySymbol()}
          </span>
        }
        {...register('money')}
      />
      {channel.presets.length > 0 && (
        <div className="chips">
          {channel.presets.map((preset) => (
            <button
              key={preset}
              type="button"
              className={`chip${minor !== null && amountMinorOf(preset) === minor ? ' is-active' : ''}`}
              data-testid={`recharge-preset-${preset}`}
              onClick={() => setValue('money', formatAmount(preset), { shouldValidate: true })}
            >
              {formatMoney(preset).replace(/[.,]00(?=\D*$)/, '')}
            </button>
          ))}
        </div>
      )}
      <dl className="details">
        {channel.fee_rate !== '0.00' && (
          <div>
            <dt>{t('money.fee')}</dt>
            <dd>{formatMoney(breakdown?.fee)}</dd>
          </div>
        )}
        {channel.bonus_rate !== '0.00' && (
          <div>
            <dt>{t('money.bonus')}</dt>
            <dd>{formatMoney(breakdown?.bonus)}</dd>
          </div>
        )}
        <div className="details__total">
          <dt>{t('money.actual_amount')}</dt>
          <dd data-testid="recharge-actual">{formatMoney(breakdown?.actual)}</dd>
        </div>
      </dl>
      {channel.bonus_rate !== '0.00' && (
        <p className="money__note">{t('money.bonus_rule', { multiple: channel.bonus_wagering_multiple })}</p>
      )}
      <SubmitButton label={t('money.deposit_now')} busy={isSubmitting} testId="recharge-submit" />
    </form>
  );
}

export default RechargePage;
