import { zodResolver } from '@hookform/resolvers/zod';
import { BANK_ACCOUNT_TYPES, type TBankCard, type TBankCardListResponse } from '@sorte/contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Field, messageText, SubmitButton } from '../../../components/field.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { confirmDialog } from '../../../lib/dialog.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useAddBankCard } from '../api/add-bank-card.ts';
import { useDeleteBankCard } from '../api/delete-bank-card.ts';
import { useBankCards } from '../api/get-bank-cards.ts';
import { ZBankCardForm } from '../bank-card-schema.ts';
import '../bank-cards.css';

type TFormInput = z.input<typeof ZBankCardForm>;
type TFormOutput = z.output<typeof ZBankCardForm>;
const FORM_FIELDS = ['bank_name', 'account_type', 'name', 'account', 'cpf_id', 'account_no'] as const;

/** Bank card add (spec §2 "bank card add", §3 "Bank card"): the player's PIX keys and a form for a new one. */
export function BankCardsPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('money.bank_cards')} requiresLogin>
      <BankCardsContent />
    </PageFrame>
  );
}

function BankCardsContent() {
  const { t } = useTranslation();
  const cards = useBankCards();
  if (cards.isPending) return <Spinner />;
  if (cards.isError) {
    return <LoadFail onRetry={() => void cards.refetch()} />;
  }
  const full = cards.data.list.length >= cards.data.max_cards;
  return (
    <div className="bank-cards">
      <section aria-label={t('money.bank_cards')}>
        {cards.data.list.length === 0 ? (
          <EmptyState message={t('empty.bank_cards')} icon="bank" />
        ) : (
          <ul className="bank-cards__list">
            {cards.data.list.map((card) => (
              <BankCardItem key={card.id} card={card} />
            ))}
          </ul>
        )}
      </section>
      {full ? (
        <p className="bank-cards__note" role="status">
          {t('money.card_limit', { max: cards.data.max_cards })}
        </p>
      ) : (
        <AddCardForm catalogue={cards.data} />
      )}
    </div>
  );
}

function BankCardItem({ card }: { card: TBankCard }) {
  const { t } = useTranslation();
  const remove = useDeleteBankCard();
  const onRemove = async () => {
    const sure = await confirmDialog(t('money.remove_confirm'), t('money.remove'), t('common.cancel'));
    if (!sure) return;
    try {
      await remove.mutateAsync(card.id);
      toast.success(t('messages.bank_card_deleted'));
    } catch {
      // The API client already showed the server's message.
    }
  };
  return (
    <li className="bank-card" data-testid="bank-card-item">
      <div className="bank-card__main">
        <strong>{card.bank_name}</strong>
        <span className="bank-card__type">{t(`money.account_types.${card.account_type}`)}</span>
        {card.is_default && <span className="bank-card__badge">{t('money.default')}</span>}
      </div>
      <p className="bank-card__key">{card.account_masked}</p>
      <p className="bank-card__payee">{card.name}</p>
      <button
        type="button"
        className="link-button bank-card__remove"
        onClick={() => void onRemove()}
        disabled={remove.isPending}
        data-testid="bank-card-remove"
      >
        {t('money.remove')}
      </button>
    </li>
  );
}

function AddCardForm({ catalogue }: { catalogue: TBankCardListResponse }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const add = useAddBankCard();
  const typeId = useId();
  const types = BANK_ACCOUNT_TYPES.filter((type) => !(catalogue.own_cpf_only && type === 'CNPJ'));
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<TFormInput, unknown, TFormOutput>({
    // A CPF key is the payee's CPF: the form asks for it once, as the key, and sends it as both.
    resolver: (values, context, options) =>
      zodResolver(ZBankCardForm)(
        values.account_type === 'CPF' ? { ...values, cpf_id: values.account } : values,
        context,
        options,
      ),
    defaultValues: {
      bank_name: '',
      account_type: 'CPF',
      name: '',
      account: '',
      cpf_id: catalogue.member_cpf ?? '',
      account_no: '',
    },
  });

  const onValid = async (values: TFormOutput) => {
    try {
      await add.mutateAsync({
        ...values,
        bank_name: values.bank_name || undefined,
        account_no: values.account_no || undefined,
      });
      toast.success(t('messages.bank_card_added'));
      reset();
      if (params.get('from') === 'withdraw') navigate('/withdraw');
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      let onField = false;
      for (const [field, message] of Object.entries(error.errors)) {
        const known = FORM_FIELDS.find((name) => name === field);
        if (known) {
          setError(known, { message });
          onField = true;
        }
      }
      if (!onField) toast.error(error.message);
    }
  };

  const typeError = messageText(errors.account_type?.message);
  const keyType = watch('account_type');
  const cpfLocked = catalogue.own_cpf_only && catalogue.member_cpf !== null;
  return (
    <form
      className="card form"
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(t('messages.form_invalid')))}
      aria-label={t('money.add_card')}
      data-testid="bank-card-form"
    >
      <h2 className="card__title">{t('money.add_card')}</h2>
      <div className={`field${typeError ? ' field--invalid' : ''}`}>
        <label htmlFor={typeId} className="field__label">
          {t('money.account_type')}
        </label>
        <div className="field__control">
          <select id={typeId} className="field__select" {...register('account_type')}>
            {types.map((type) => (
              <option key={type} value={type}>
                {t(`money.account_types.${type}`)}
              </option>
            ))}
          </select>
        </div>
        {typeError && (
          <p className="field__error" role="alert">
            {typeError}
          </p>
        )}
      </div>
      <Field
        label={`${t('money.pix_account')} · ${t(`money.account_types.${keyType}`)}`}
        inputMode={keyType === 'CPF' || keyType === 'CNPJ' || keyType === 'PHONE' ? 'numeric' : undefined}
        type={keyType === 'EMAIL' ? 'email' : 'text'}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={77}
        data-testid="bank-card-key"
        error={errors.account?.message}
        {...register('account')}
      />
      <Field
        label={t('money.payee')}
        autoComplete="name"
        maxLength={100}
        error={errors.name?.message}
        {...register('name')}
      />
      {keyType !== 'CPF' && (
        <Field
          label={t('money.cpf_number')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={20}
          readOnly={cpfLocked}
          data-testid="bank-card-cpf"
          error={errors.cpf_id?.message}
          {...register('cpf_id')}
        />
      )}
      <details className="bank-cards__more">
        <summary>{t('money.more_details')}</summary>
        <Field
          label={t('money.bank_name')}
          placeholder={t('money.bank_name_placeholder')}
          maxLength={60}
          error={errors.bank_name?.message}
          {...register('bank_name')}
        />
        <Field
          label={t('money.collection_account')}
          hint={t('money.optional')}
          autoComplete="off"
          maxLength={40}
          error={errors.account_no?.message}
          {...register('account_no')}
        />
      </details>
      <SubmitButton label={t('money.save_card')} busy={isSubmitting} testId="bank-card-add" />
    </form>
  );
}

export default BankCardsPage;
