import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError, api } from '../api.ts';
import './content.css';

/**
 * Small pieces shared by the content screens (site, games, promotions, commission, announcements,
 * chat): a save call that shows the server's translated answer (and its field errors) under the
 * form, a section card and a labelled field.
 */

export type TNotice = { tone: 'ok' | 'error'; text: string; errors?: string[] } | null;

/** A PUT/POST/PATCH/DELETE to the admin API; refetches `invalidate` query keys on success. */
export function useSave<TBody, TResult = unknown>(
  path: string | ((body: TBody) => string),
  method: 'PUT' | 'POST' | 'PATCH' | 'DELETE',
  invalidate: readonly unknown[][] = [],
) {
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<TNotice>(null);
  const mutation = useMutation({
    mutationFn: (body: TBody) =>
      api<TResult>(typeof path === 'function' ? path(body) : path, {
        method,
        ...(method === 'DELETE' ? {} : { body }),
      }),
    onMutate: () => setNotice(null),
    onSuccess: async ({ message }) => {
      setNotice({ tone: 'ok', text: message });
      for (const key of invalidate) await queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        const errors = Object.entries(error.errors).map(([field, text]) => `${field}: ${text}`);
        setNotice({ tone: 'error', text: error.message, errors });
      } else setNotice({ tone: 'error', text: String(error) });
    },
  });
  return { save: mutation.mutate, saving: mutation.isPending, notice, setNotice };
}

export function Notice({ notice, testId }: { notice: TNotice; testId?: string }) {
  if (!notice) return null;
  return (
    <div
      className={`alert alert--${notice.tone === 'ok' ? 'ok' : 'error'}`}
      role={notice.tone === 'ok' ? 'status' : 'alert'}
      data-testid={testId}
    >
      <p>{notice.text}</p>
      {notice.errors && notice.errors.length > 0 && (
        <ul className="notice__errors">
          {notice.errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Section(props: { title: string; hint?: string; children: ReactNode; testId?: string }) {
  return (
    <section className="card content-section" data-testid={props.testId}>
      <header className="content-section__header">
        <h2>{props.title}</h2>
        {props.hint && <p className="muted">{props.hint}</p>}
      </header>
      {props.children}
    </section>
  );
}

export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <label className={`field${props.wide ? ' content-field--wide' : ''}`} htmlFor={props.id}>
      <span className="field__label">{props.label}</span>
      {props.children}
      {props.hint && <span className="field__hint">{props.hint}</span>}
    </label>
  );
}

/** Lines of a textarea, trimmed, blank ones dropped. */
export const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
