import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import { useStore } from '../../../lib/store.ts';
import { detectPlatform, installedStore, installPromptStore } from '../pwa-state.ts';

/**
 * Installation: the browser's own prompt when it offered one (Chromium), otherwise the
 * add-to-home-screen steps for the player's platform.
 */
export function InstallInstructions({ onDone }: { onDone?: () => void }) {
  const { t } = useTranslation();
  const deferred = useStore(installPromptStore);
  const installed = useStore(installedStore);
  const platform = detectPlatform();

  if (installed) {
    return (
      <p className="install__status">
        <Icon name="check" size={18} /> {t('pwa.installed')}
      </p>
    );
  }

  if (deferred) {
    const install = async () => {
      await deferred.prompt();
      const choice = await deferred.userChoice;
      installPromptStore.set(null);
      if (choice.outcome === 'accepted') onDone?.();
    };
    return (
      <div className="install">
        <p>{t('pwa.install_lead')}</p>
        <button type="button" className="button button--primary button--block" onClick={() => void install()}>
          <Icon name="download" size={18} />
          {t('pwa.install_now')}
        </button>
      </div>
    );
  }

  const steps =
    platform === 'ios'
      ? ['pwa.steps_ios_1', 'pwa.steps_ios_2', 'pwa.steps_ios_3']
      : ['pwa.steps_other_1', 'pwa.steps_other_2', 'pwa.steps_other_3'];
  return (
    <div className="install">
      <p>{t('pwa.install_lead')}</p>
      <ol className="install__steps">
        {steps.map((key, index) => (
          <li key={key}>
            <span className="install__step-number" aria-hidden="true">
              {index + 1}
            </span>
            <span>{t(key)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
