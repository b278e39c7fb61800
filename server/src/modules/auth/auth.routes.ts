import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { WhoAmI } from '#contract/admin';
import { LoginTwoFactorBody } from '#contract/account';
import { LoginAnswer, LoginBody, LoginResult } from '#contract/auth';
import { clientOf, currentAdmin } from '../../plugins/auth';
import { ok, responses } from '../../lib/http';
import { CAPTCHA_LIFETIME_MS, type AuthService } from './auth.service';

export const CAPTCHA_COOKIE = 'captcha_id';

// The cookie comes from the client: anything but an id this server could have made is no captcha.
export function captchaIdOf(request: FastifyRequest): string | null {
  const id = request.cookies[CAPTCHA_COOKIE];
  return id && /^[0-9a-f]{32}$/.test(id) ? id : null;
}

/** GET /res/captcha: the SVG image, its answer kept server-side and tied to this browser. */
export const captchaRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  // Only the captcha and the sign-in read or set a cookie: parsed here, not on every call.
  await app.register(cookie);
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
export const sessionRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; timeZone: string }> = async (app, { auth, timeZone }) => {
  // The sign-in reads the captcha's cookie; whoami and the rest never need one parsed.
  await app.register(async (signIn) => {
    await signIn.register(cookie);
    signIn.withTypeProvider<TypeBoxTypeProvider>().post(
      '/login',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: '管理员登录（开启两步验证的账号得到 challenge，再调用 /login/2fa）',
          body: LoginBody,
          response: responses(LoginAnswer),
        },
      },
      async (request) => ok(await auth.login(request.body, captchaIdOf(request), clientOf(request))),
    );
  });

  app.post(
    '/login/2fa',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: '两步验证登录的第二步：challenge 加动态验证码或恢复码',
        body: LoginTwoFactorBody,
        response: responses(LoginResult),
      },
    },
    async (request) => ok(await auth.loginTwoFactor(request.body, clientOf(request))),
  );

  app.get(
    '/whoami',
    {
      config: { access: 'admin', allowWithout2fa: true, allowWithInitialPassword: true },
      schema: { tags: ['auth'], summary: '当前登录的管理员', response: responses(WhoAmI) },
    },
    async (request) => {
      const { id, loginId, nickname, avatar, permission, twoFactorEnabled, mustSetUp2fa, mustChangePassword } = currentAdmin(request);
      return ok({
        _id: id,
        loginId,
        nickname,
        avatar,
        permission: permission as 1 | 2,
        twoFactorEnabled,
        mustSetUp2fa,
        mustChangePassword,
        timeZone,
      });
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'admin', allowWithout2fa: true, allowWithInitialPassword: true },
      schema: { tags: ['auth'], summary: '退出登录（令牌立即失效）', response: responses(Type.Null()) },
    },
    async (request) => {
      await auth.logout(currentAdmin(request));
      return ok(null);
    },
  );
};
