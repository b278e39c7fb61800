import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';

/*
 * Messages from anywhere (request error handler, session code, pages) go through one instance
 * rendered inside the app's ConfigProvider. antd's static message is only the fallback for code
 * running outside the React tree; called after ProLayout's themed provider has mounted, it would
 * warn in development on every call. (antd's <App> would do the same job but brings Modal and
 * notification into the first bundle.)
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

/** Rendered once at the root: holds the messages and hands its instance to the module above. */
export function MessageBridge() {
  const [instance, holder] = staticMessage.useMessage();
  useEffect(() => {
    bound = instance;
    return () => {
      bound = undefined;
    };
  }, [instance]);
  return holder;
}
