export {
  type CaughtMessage,
  createMailCatcher,
  type MailCatcher,
  type MailCatcherOptions,
} from './catcher.ts';
