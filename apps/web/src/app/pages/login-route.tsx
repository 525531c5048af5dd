import { LoginPage } from '../../features/auth/components/login-page.tsx';

export default LoginPage;
