import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest, RouteShorthandOptions } from 'fastify';
import { Book, BookListQuery } from '#contract/book';
import { Comment, CommentRow, ParentCommentsQuery } from '#contract/comment';
import { IdParams } from '#contract/ids';
import { Interview, InterviewListQuery } from '#contract/interview';
import { Issue, IssueListQuery } from '#contract/issue';
import { Paged } from '#contract/paging';
import {
  InterviewTitles,
  MemberSession,
  OwnProfile,
  PasswordCheckBody,
  PointsEntry,
  PublicProfile,
  SignUpBody,
  SignUpResult,
  SiteCreateCommentBody,
  SiteCreateIssueBody,
  SiteLoginAnswer,
  SiteLoginBody,
  SiteUpdateUserBody,
  SiteWhoAmI,
  ViewBody,
} from '#contract/site';
import { TypeRecord } from '#contract/type';
import { UserLoginIdParams } from '#contract/user';
import { unauthorized } from '../../lib/errors';
import { createdResponses, ok, responses } from '../../lib/http';
import { type Audience, clientOf, currentAdmin, currentMember } from '../../plugins/auth';
import { captchaIdOf } from '../auth/auth.routes';
import type { MemberAuth } from './site.auth';
import type { SiteService, Viewer } from './site.service';

const BOTH: readonly Audience[] = ['visitor', 'member'];
const MEMBERS: readonly Audience[] = ['member'];

const viewerOf = (request: FastifyRequest): Viewer => ({ member: request.member, ip: request.ip });

/**
 * The public site's calls, at the old client's paths. Each is registered per audience (a route
 * constraint, plugins/auth.ts): visitors' routes are public, members' check the member's token.
 * A call of neither audience (an admin's token) reaches the admin route of the same path, if any.
 */
export const siteRoutes: FastifyPluginAsyncTypebox<{ site: SiteService }> = async (app, { site }) => {
  await app.register(cookie);

  /** Registers one handler for each audience; the schema is kept out of the back-office's OpenAPI document. */
  function route<S extends RouteShorthandOptions['schema']>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    audiences: readonly Audience[],
    schema: S,
    handler: (request: FastifyRequest & { params: never; query: never; body: never }, reply: unknown) => Promise<unknown>,
    membersOnly = false,
  ) {
    for (const audience of audiences) {
      app.route({
        method,
        url,
        constraints: { audience },
        config: { access: audience === 'visitor' ? 'public' : 'member', audience },
        schema: { ...schema, hide: true },
        // A members' call at a path no admin route has: a visitor is told to sign in, before the body is read.
        ...(membersOnly && audience === 'visitor' && { onRequest: (_request, _reply, done) => done(unauthorized()) }),
        handler: handler as never,
      });
    }
  }
  type Req<P = unknown, Q = unknown, B = unknown> = { params: P; query: Q; body: B; member: FastifyRequest['member'] } & FastifyRequest;
  const id = (request: unknown) => (request as Req<{ id: string }>).params.id;

  // —— accounts ——
  route('POST', '/user/login', BOTH, { body: SiteLoginBody, response: responses(SiteLoginAnswer) }, async (request) => {
    const r = request as unknown as Req<unknown, unknown, typeof SiteLoginBody.static>;
    return ok(await site.signIn(r.body, captchaIdOf(r), clientOf(r)));
  });
  route('POST', '/user', ['visitor'], { body: SignUpBody, response: createdResponses(SignUpResult) }, async (request, reply) => {
    const r = request as unknown as Req<unknown, unknown, typeof SignUpBody.static>;
    return (reply as { status(code: number): { send(body: unknown): unknown } })
      .status(201)
      .send(ok(await site.signUp(r.body, captchaIdOf(r), clientOf(r))));
  });
  route(
    'GET',
    '/user/whoami',
    BOTH,
    { response: responses(SiteWhoAmI) },
    async (request) => {
      const member = currentMember(request);
      return ok({ _id: member.id, loginId: member.loginId });
    },
    true,
  );
  route(
    'POST',
    '/user/logout',
    BOTH,
    { response: responses(Type.Null()) },
    async (request) => {
      await site.logout(currentMember(request));
      return ok(null);
    },
    true,
  );
  route('GET', '/user/pointsrank', BOTH, { response: responses(Type.Array(PublicProfile)) }, async () => ok(await site.pointsRank()));
  route('GET', '/user/userIsExist/:loginId', BOTH, { params: UserLoginIdParams, response: responses(Type.Boolean()) }, async (request) =>
    ok(await site.loginIdTaken((request as unknown as Req<{ loginId: string }>).params.loginId)),
  );
  route('GET', '/user/:id', BOTH, { params: IdParams, response: responses(Type.Union([OwnProfile, PublicProfile])) }, async (request) =>
    ok(await site.profile(id(request), viewerOf(request))),
  );
  route('PATCH', '/user/:id', MEMBERS, { params: IdParams, body: SiteUpdateUserBody, response: responses(OwnProfile) }, async (request) => {
    const r = request as unknown as Req<{ id: string }, unknown, typeof SiteUpdateUserBody.static>;
    return ok(await site.updateOwn(currentMember(r), r.params.id, r.body));
  });
  route(
    'POST',
    '/user/passwordcheck',
    BOTH,
    { body: PasswordCheckBody, response: responses(Type.Boolean()) },
    async (request) => {
      const r = request as unknown as Req<unknown, unknown, typeof PasswordCheckBody.static>;
      return ok(await site.passwordCheck(currentMember(r), r.body));
    },
    true,
  );

  // —— questions and comments ——
  route('GET', '/issue', BOTH, { querystring: IssueListQuery, response: responses(Paged(Issue)) }, async (request) =>
    ok(await site.listIssues((request as unknown as Req<unknown, typeof IssueListQuery.static>).query)),
  );
  route('GET', '/issue/:id', BOTH, { params: IdParams, response: responses(Issue) }, async (request) =>
    ok(await site.getIssue(id(request))),
  );
  route('PATCH', '/issue/:id', BOTH, { params: IdParams, body: ViewBody, response: responses(Issue) }, async (request) =>
    ok(
      await site.viewIssue(
        id(request),
        viewerOf(request),
        (request as unknown as Req<unknown, unknown, { scanNumber?: number }>).body?.scanNumber !== undefined,
      ),
    ),
  );
  route('POST', '/issue', MEMBERS, { body: SiteCreateIssueBody, response: createdResponses(Issue) }, async (request, reply) => {
    const r = request as unknown as Req<unknown, unknown, typeof SiteCreateIssueBody.static>;
    return (reply as { status(code: number): { send(body: unknown): unknown } })
      .status(201)
      .send(ok(await site.ask(currentMember(r), r.body)));
  });
  route(
    'GET',
    '/comment/issuecomment/:id',
    BOTH,
    { params: IdParams, querystring: ParentCommentsQuery, response: responses(Paged(CommentRow)) },
    async (request) =>
      ok(await site.issueComments(id(request), (request as unknown as Req<unknown, typeof ParentCommentsQuery.static>).query)),
  );
  route(
    'GET',
    '/comment/bookcomment/:id',
    BOTH,
    { params: IdParams, querystring: ParentCommentsQuery, response: responses(Paged(CommentRow)) },
    async (request) =>
      ok(await site.bookComments(id(request), (request as unknown as Req<unknown, typeof ParentCommentsQuery.static>).query)),
  );
  route('POST', '/comment', MEMBERS, { body: SiteCreateCommentBody, response: createdResponses(Comment) }, async (request, reply) => {
    const r = request as unknown as Req<unknown, unknown, typeof SiteCreateCommentBody.static>;
    return (reply as { status(code: number): { send(body: unknown): unknown } })
      .status(201)
      .send(ok(await site.comment(currentMember(r), r.body)));
  });

  // —— books, interview questions, types ——
  route('GET', '/book', BOTH, { querystring: BookListQuery, response: responses(Paged(Book)) }, async (request) =>
    ok(await site.listBooks((request as unknown as Req<unknown, typeof BookListQuery.static>).query, viewerOf(request))),
  );
  route('GET', '/book/:id', BOTH, { params: IdParams, response: responses(Book) }, async (request) =>
    ok(await site.getBook(id(request), viewerOf(request))),
  );
  route('PATCH', '/book/:id', BOTH, { params: IdParams, body: ViewBody, response: responses(Book) }, async (request) =>
    ok(
      await site.viewBook(
        id(request),
        viewerOf(request),
        (request as unknown as Req<unknown, unknown, { scanNumber?: number }>).body?.scanNumber !== undefined,
      ),
    ),
  );
  route(
    'POST',
    '/book/:id/unlock',
    BOTH,
    { params: IdParams, response: responses(Book) },
    async (request) => ok(await site.unlockBook(currentMember(request), id(request))),
    true,
  );
  route('GET', '/interview', BOTH, { querystring: InterviewListQuery, response: responses(Paged(Interview)) }, async (request) =>
    ok(await site.listInterviews((request as unknown as Req<unknown, typeof InterviewListQuery.static>).query)),
  );
  route('GET', '/interview/interviewTitle', BOTH, { response: responses(InterviewTitles) }, async () => ok(await site.interviewTitles()));
  route('GET', '/interview/:id', BOTH, { params: IdParams, response: responses(Interview) }, async (request) =>
    ok(await site.getInterview(id(request))),
  );
  route('GET', '/type', BOTH, { response: responses(Type.Array(TypeRecord)) }, async () => ok(await site.listTypes()));
};

/** The back-office's view of a member: sessions (结束会话) and points history, under /api/user/:id. */
export const memberAdminRoutes: FastifyPluginAsyncTypebox<{ site: SiteService; members: MemberAuth }> = async (app, { site, members }) => {
  app.get(
    '/:id/sessions',
    {
      config: { access: 'admin' },
      schema: { summary: '用户在前台的登录会话', params: IdParams, response: responses(Type.Array(MemberSession)) },
    },
    async (request) => ok(await members.list(request.params.id)),
  );
  app.delete(
    '/:id/sessions',
    {
      config: { access: 'admin' },
      schema: { summary: '结束用户在前台的全部会话', params: IdParams, response: responses(Type.Object({ ended: Type.Integer() })) },
    },
    async (request) => ok({ ended: await site.endMemberSessions(currentAdmin(request), request.params.id) }),
  );
  app.delete(
    '/:id/sessions/:sessionId',
    {
      config: { access: 'admin' },
      schema: {
        summary: '结束用户在前台的一个会话',
        params: Type.Object({ id: IdParams.properties.id, sessionId: Type.String({ pattern: '^[0-9a-f]{32}$' }) }),
        response: responses(Type.Null()),
      },
    },
    async (request) => {
      await site.endMemberSessions(currentAdmin(request), request.params.id, request.params.sessionId);
      return ok(null);
    },
  );
  app.get(
    '/:id/points',
    {
      config: { access: 'admin' },
      schema: {
        summary: '用户的积分记录（新的在前）',
        params: IdParams,
        querystring: ParentCommentsQuery,
        response: responses(Paged(PointsEntry)),
      },
    },
    async (request) => ok(await site.pointsHistory(request.params.id, request.query)),
  );
};
