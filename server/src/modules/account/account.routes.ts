import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminSession,
  ChangePasswordBody,
  LoginRecordPage,
  LoginRecordQuery,
  RecoveryCodes,
  RecoveryCodesLeft,
  RegenerateRecoveryCodesBody,
  SecuritySettings,
  SessionIdParams,
  TwoFactorDisableBody,
  TwoFactorEnableBody,
  TwoFactorSetup,
  UpdateMeBody,
} from '#contract/account';
import { Admin } from '#contract/admin';
import { IdParams } from '#contract/ids';
import { ReauthBody, ReauthResult } from '#contract/version';
import { clientOf, currentAdmin } from '../../plugins/auth';
import { ok, responses } from '../../lib/http';
import type { Config } from '../../config';
import { relyingPartyOf } from '../passkey/passkey.routes';
import type { AccountService } from './account.service';

/** 个人设置 and the super admin's hold on other admins' sign-in, under /api/admin. */
export const accountRoutes: FastifyPluginAsyncTypebox<{ account: AccountService; webAuthn: Config['webAuthn'] }> = async (
  app,
  { account, webAuthn },
) => {
  app.patch(
    '/me',
    {
      config: { access: 'admin' },
      schema: { tags: ['account'], summary: '修改本人的昵称、头像', body: UpdateMeBody, response: responses(Admin) },
    },
    async (request) => ok(await account.updateMe(currentAdmin(request), request.body)),
  );

  app.post(
    '/me/password',
    {
      config: { access: 'admin', allowWithInitialPassword: true },
      schema: {
        tags: ['account'],
        summary: '修改本人密码（需要当前密码；保留本会话，结束其他会话）',
        body: ChangePasswordBody,
        response: responses(Type.Null()),
      },
    },
    async (request) => {
      await account.changePassword(currentAdmin(request), request.body, clientOf(request));
      return ok(null);
    },
  );

  app.post(
    '/me/reauth',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['account'],
        summary: '重新验证身份（密码或动态验证码，二选一）：之后 REAUTH_WINDOW_SECONDS 内可以进行需要验证的操作',
        body: ReauthBody,
        response: responses(ReauthResult),
      },
    },
    // The relying party only for a passkey: without one configured (not on localhost) a password
    // or a code must still prove who the admin is.
    async (request) =>
      ok(
        await account.reauth(
          currentAdmin(request),
          request.body,
          clientOf(request),
          request.body.passkey ? relyingPartyOf(webAuthn, request) : undefined,
        ),
      ),
  );

  app.post(
    '/me/2fa/setup',
    {
      config: { access: 'admin', allowWithout2fa: true },
      schema: { tags: ['account'], summary: '获取两步验证密钥（确认前不生效）', response: responses(TwoFactorSetup) },
    },
    async (request) => ok(await account.setUpTwoFactor(currentAdmin(request))),
  );

  app.post(
    '/me/2fa/enable',
    {
      config: { access: 'admin', allowWithout2fa: true },
      schema: {
        tags: ['account'],
        summary: '用动态验证码确认并开启两步验证；返回 10 个恢复码（只显示这一次）',
        body: TwoFactorEnableBody,
        response: responses(RecoveryCodes),
      },
    },
    async (request) => ok(await account.enableTwoFactor(currentAdmin(request), request.body.code, clientOf(request))),
  );

  app.get(
    '/me/2fa/recovery-codes',
    {
      config: { access: 'admin' },
      schema: { tags: ['account'], summary: '剩余可用的恢复码个数', response: responses(RecoveryCodesLeft) },
    },
    async (request) => ok(await account.recoveryCodesLeft(currentAdmin(request))),
  );

  app.post(
    '/me/2fa/recovery-codes',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['account'],
        summary: '重新生成 10 个恢复码（需要当前密码或动态验证码，二选一）；旧恢复码立即失效，新恢复码只显示这一次',
        body: RegenerateRecoveryCodesBody,
        response: responses(RecoveryCodes),
      },
    },
    async (request) => ok(await account.regenerateRecoveryCodes(currentAdmin(request), request.body, clientOf(request))),
  );

  app.post(
    '/me/2fa/disable',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['account'],
        summary: '关闭两步验证（需要当前密码和动态验证码）',
        body: TwoFactorDisableBody,
        response: responses(Type.Null()),
      },
    },
    async (request) => {
      await account.disableTwoFactor(currentAdmin(request), request.body, clientOf(request));
      return ok(null);
    },
  );

  app.get(
    '/me/sessions',
    {
      config: { access: 'admin' },
      schema: { tags: ['account'], summary: '本人的登录设备（有效会话）', response: responses(Type.Array(AdminSession)) },
    },
    async (request) => ok(await account.sessions(currentAdmin(request))),
  );

  app.delete(
    '/me/sessions/:sessionId',
    {
      config: { access: 'admin' },
      schema: { tags: ['account'], summary: '结束本人的一个会话', params: SessionIdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await account.endSession(currentAdmin(request), request.params.sessionId);
      return ok(null);
    },
  );

  app.delete(
    '/me/sessions',
    {
      config: { access: 'admin' },
      schema: { tags: ['account'], summary: '结束本人除本会话外的所有会话', response: responses(Type.Null()) },
    },
    async (request) => {
      await account.endOtherSessions(currentAdmin(request));
      return ok(null);
    },
  );

  app.get(
    '/me/logins',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['account'],
        summary: '本人账号 90 天内的登录记录（成功与失败）',
        querystring: LoginRecordQuery,
        response: responses(LoginRecordPage),
      },
    },
    async (request) => ok(await account.logins(currentAdmin(request), request.query)),
  );

  app.get(
    '/:id/sessions',
    {
      config: { access: 'super' },
      schema: { tags: ['account'], summary: '一个管理员的有效会话', params: IdParams, response: responses(Type.Array(AdminSession)) },
    },
    async (request) => ok(await account.sessions(currentAdmin(request), request.params.id)),
  );

  app.delete(
    '/:id/sessions',
    {
      config: { access: 'super', reauth: true },
      schema: { tags: ['account'], summary: '结束一个管理员的所有会话', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await account.endSessionsOf(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.delete(
    '/:id/2fa',
    {
      config: { access: 'super', reauth: true },
      schema: {
        tags: ['account'],
        summary: '重置一个管理员的两步验证（并结束其所有会话）',
        params: IdParams,
        response: responses(Type.Null()),
      },
    },
    async (request) => {
      await account.resetTwoFactor(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );
};

/** /api/settings/security: whether every admin must use two-step sign-in. */
export const securitySettingsRoutes: FastifyPluginAsyncTypebox<{ account: AccountService }> = async (app, { account }) => {
  app.get(
    '/security',
    {
      config: { access: 'super' },
      schema: { tags: ['settings'], summary: '安全设置', response: responses(SecuritySettings) },
    },
    async () => ok(await account.securitySettings()),
  );

  app.patch(
    '/security',
    {
      config: { access: 'super', reauth: true },
      schema: {
        tags: ['settings'],
        summary: '修改安全设置（require2fa：要求所有管理员开启两步验证）',
        body: SecuritySettings,
        response: responses(SecuritySettings),
      },
    },
    async (request) => ok(await account.updateSecuritySettings(currentAdmin(request), request.body)),
  );
};
