import { HomePage } from '../../features/home/components/home-page.tsx';

export default HomePage;
