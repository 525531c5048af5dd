import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { toast } from '../../../lib/toast.ts';
import { useProfilePictures } from '../api/get-profile-pictures.ts';
import { useSetProfilePicture } from '../api/set-profile-picture.ts';

type TGroup = 'male' | 'female';

export function PhotoPicker({ current, onClose }: { current: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [group, setGroup] = useState<TGroup>('male');
  const pictures = useProfilePictures(true);
  const setPicture = useSetProfilePicture();
  const list = pictures.data?.[group] ?? [];

  const choose = async (pictureId: number) => {
    try {
      await setPicture.mutateAsync(pictureId);
      toast.success(t('profile.photo_updated'));
      onClose();
    } catch {
      // The API client already showed the server's message.
    }
  };

  return (
    <Modal title={t('profile.choose_photo')} onClose={onClose} testId="photo-picker">
      <div className="tabs" role="tablist" aria-label={t('profile.choose_photo')}>
        {(['male', 'female'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={group === name}
            className={`tabs__tab${group === name ? ' is-active' : ''}`}
            onClick={() => setGroup(name)}
          >
            {t(`profile.${name}`)}
          </button>
        ))}
      </div>
      {pictures.isPending ? (
        <Spinner />
      ) : list.length === 0 ? (
        <EmptyState message={t('empty.records')} icon="user" />
      ) : (
        <ul className="photo-grid" role="tabpanel">
          {list.map((picture) => (
            <li key={picture.id}>
              <button
                type="button"
                className={`photo-grid__item${picture.url === current ? ' is-active' : ''}`}
                onClick={() => void choose(picture.id)}
                disabled={setPicture.isPending}
                aria-label={t('profile.use_photo', { number: picture.id })}
                aria-pressed={picture.url === current}
              >
                <img src={picture.url} alt="" width={72} height={72} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
