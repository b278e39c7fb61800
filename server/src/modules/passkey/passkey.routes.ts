import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { LoginResult } from '#contract/auth';
import { IdParams } from '#contract/ids';
import {
  AddPasskeyBody,
  Passkey,
  PASSKEY_MESSAGES,
  PasskeyCreationOptions,
  PasskeyLoginBody,
  PasskeyRequestOptions,
  RenamePasskeyBody,
} from '#contract/passkey';
import type { Config } from '../../config';
import { badRequest } from '../../lib/errors';
import { createdResponses, ok, responses } from '../../lib/http';
import { clientOf, currentAdmin } from '../../plugins/auth';
import type { PasskeyService, RelyingParty } from './passkey.service';

const isLocal = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * The relying party of a request: the configured one, or, with none configured, the page's own
 * origin (the Origin header a browser sends, else the Host) when its host is localhost.
 */
export function relyingPartyOf(webAuthn: Config['webAuthn'], request: FastifyRequest): RelyingParty {
  if (webAuthn.rpId !== null && webAuthn.origins !== null)
    return { rpId: webAuthn.rpId, rpName: webAuthn.rpName, origins: webAuthn.origins };
  const given = request.headers.origin;
  let url: URL | null = null;
  try {
    url = new URL(typeof given === 'string' && given !== 'null' ? given : `${request.protocol}://${request.host}`);
  } catch {
    url = null;
  }
  if (!url || !isLocal(url.hostname)) throw badRequest(PASSKEY_MESSAGES.notConfigured);
  return { rpId: url.hostname, rpName: webAuthn.rpName, origins: [url.origin] };
}

/** 个人设置 → 通行密钥, under /api/admin/me/passkeys. */
export const passkeyRoutes: FastifyPluginAsyncTypebox<{ passkeys: PasskeyService; webAuthn: Config['webAuthn'] }> = async (
  app,
  { passkeys, webAuthn },
) => {
  const rp = (request: FastifyRequest) => relyingPartyOf(webAuthn, request);

  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: { tags: ['passkey'], summary: '本人的通行密钥', response: responses(Type.Array(Passkey)) },
    },
    async (request) => ok(await passkeys.list(currentAdmin(request))),
  );

  app.post(
    '/options',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['passkey'],
        summary: '添加通行密钥的第一步：navigator.credentials.create 的参数（2 分钟内有效，只能用一次）',
        response: responses(PasskeyCreationOptions),
      },
    },
    async (request) => ok(await passkeys.registrationOptions(currentAdmin(request), rp(request))),
  );

  app.post(
    '/',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['passkey'],
        summary: '添加通行密钥的第二步：浏览器的应答和名称',
        body: AddPasskeyBody,
        response: createdResponses(Passkey),
      },
    },
    async (request, reply) => reply.status(201).send(ok(await passkeys.add(currentAdmin(request), request.body, rp(request)))),
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['passkey'],
        summary: '重命名本人的通行密钥',
        params: IdParams,
        body: RenamePasskeyBody,
        response: responses(Passkey),
      },
    },
    async (request) => ok(await passkeys.rename(currentAdmin(request), request.params.id, request.body.name)),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: { tags: ['passkey'], summary: '删除本人的通行密钥', params: IdParams, response: responses(Type.Null()) },
    },
    async (request) => {
      await passkeys.remove(currentAdmin(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    '/proof-options',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['passkey'],
        summary: '用通行密钥重新验证身份的参数（navigator.credentials.get；2 分钟内有效，只能用一次）',
        response: responses(PasskeyRequestOptions),
      },
    },
    async (request) => ok(await passkeys.proofOptions(currentAdmin(request), rp(request))),
  );
};

/** 使用通行密钥登录, under /api/admin/login/passkey. */
export const passkeyLoginRoutes: FastifyPluginAsyncTypebox<{ passkeys: PasskeyService; webAuthn: Config['webAuthn'] }> = async (
  app,
  { passkeys, webAuthn },
) => {
  app.post(
    '/options',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: '通行密钥登录的第一步：navigator.credentials.get 的参数（不需要账号，2 分钟内有效，只能用一次）',
        response: responses(PasskeyRequestOptions),
      },
    },
    async (request) => ok(await passkeys.signInOptions(relyingPartyOf(webAuthn, request))),
  );

  app.post(
    '/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: '通行密钥登录的第二步：浏览器的应答；通行密钥兼作两步验证，不需要验证码',
        body: PasskeyLoginBody,
        response: responses(LoginResult),
      },
    },
    async (request) =>
      ok(
        await passkeys.signIn(request.body.response, request.body.remember ?? false, clientOf(request), relyingPartyOf(webAuthn, request)),
      ),
  );
};
