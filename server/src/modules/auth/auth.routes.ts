import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { WhoAmI } from '../../../../contract/admin';
import { LoginBody, LoginResult } from '../../../../contract/auth';
import { currentAdmin } from '../../plugins/auth';
import { ok, responses } from '../../lib/http';
import { CAPTCHA_LIFETIME_MS, type AuthService } from './auth.service';

export const CAPTCHA_COOKIE = 'captcha_id';

// The cookie comes from the client: anything but an id this server could have made is no captcha.
function captchaIdOf(request: FastifyRequest): string | null {
  const id = request.cookies[CAPTCHA_COOKIE];
  return id && /^[0-9a-f]{32}$/.test(id) ? id : null;
}

/** GET /res/captcha: the SVG image, its answer kept server-side and tied to this browser. */
export const captchaRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.get(
    '/captcha',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: '获取验证码（SVG）', produces: ['image/svg+xml'] },
    },
    async (request, reply) => {
      const { id, svg } = await auth.newCaptcha(captchaIdOf(request));
      return reply
        .setCookie(CAPTCHA_COOKIE, id, {
          httpOnly: true,
          sameSite: 'strict',
          path: '/',
          secure: 'auto',
          maxAge: CAPTCHA_LIFETIME_MS / 1000,
        })
        .header('Cache-Control', 'no-store')
        .type('image/svg+xml; charset=utf-8')
        .send(svg);
    },
  );
};

/** Sign-in calls under /api/admin. */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/login',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: '管理员登录', body: LoginBody, response: responses(LoginResult) },
    },
    async (request) => ok(await auth.login(request.body, captchaIdOf(request), request.ip)),
  );

  app.get(
    '/whoami',
    {
      config: { access: 'admin' },
      schema: { tags: ['auth'], summary: '当前登录的管理员', response: responses(WhoAmI) },
    },
    async (request) => {
      const { id, loginId, nickname, avatar, permission } = currentAdmin(request);
      return ok({ _id: id, loginId, nickname, avatar, permission: permission as 1 | 2 });
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'admin' },
      schema: { tags: ['auth'], summary: '退出登录（令牌立即失效）', response: responses(Type.Null()) },
    },
    async (request) => {
      await auth.logout(currentAdmin(request));
      return ok(null);
    },
  );
};
