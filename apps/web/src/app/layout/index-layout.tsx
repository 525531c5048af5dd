import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Spinner } from '../../components/spinner.tsx';
import { InviteLanding } from '../../features/agency/components/invite-landing.tsx';
import { ChatLauncher } from '../../features/chat/components/chat-launcher.tsx';
import { BackgroundVideo } from './background-video.tsx';
import { BottomNav } from './bottom-nav.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { SideMenu } from './side-menu.tsx';

/** The index layout: every main route renders inside it (spec §2). */
export function IndexLayout() {
  return (
    <div className="layout">
      <BackgroundVideo />
      <SideMenu />
      <div className="layout__main">
        <Header />
        <main className="layout__content" id="main">
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer />
      </div>
      <BottomNav />
      <ChatLauncher />
      <InviteLanding />
    </div>
  );
}
