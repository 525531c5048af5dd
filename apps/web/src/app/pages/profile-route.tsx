import { ProfilePage } from '../../features/profile/components/profile-page.tsx';

export default ProfilePage;
