import { App, message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';

/*
 * Messages from anywhere (request error handler, session code, pages) go through the app's
 * <App> instance, which follows its ConfigProvider. antd's static message is only the fallback
 * for code running outside the React tree; called after ProLayout's themed provider has mounted,
 * it would warn in development on every call.
 */

let bound: MessageInstance | undefined;

const current = (): MessageInstance => bound ?? staticMessage;

export const message: MessageInstance = {
  open: (...args) => current().open(...args),
  success: (...args) => current().success(...args),
  error: (...args) => current().error(...args),
  warning: (...args) => current().warning(...args),
  info: (...args) => current().info(...args),
  loading: (...args) => current().loading(...args),
  destroy: (...args) => current().destroy(...args),
};

/** Rendered once inside antd's <App>: hands its message instance to the module above. */
export function MessageBridge() {
  const { message: instance } = App.useApp();
  useEffect(() => {
    bound = instance;
    return () => {
      bound = undefined;
    };
  }, [instance]);
  return null;
}
