import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerAuth } from './plugins/auth';
import { registerReauth } from './plugins/reauth';
import { registerDrain } from './plugins/drain';
import { registerMetrics } from './plugins/metrics';
import { registerProbes } from './plugins/probes';
import { clientErrorHandler, followAnswers, frameworkErrorHandler, registerErrorHandling } from './plugins/errors';
import { registerInputNormalisation } from './plugins/input';
import { silentLogging, type Logging } from './plugins/logging';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { validatorOptions } from './plugins/validation';
import { registerUnreadBody } from './plugins/unread-body';
import { registerTracing } from './plugins/tracing';
import { registerWeb } from './plugins/web';
import type { Tracing } from './lib/tracing';
import { createAudit } from './modules/audit/audit';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditRetention } from './modules/audit/audit.retention';
import { auditRoutes } from './modules/audit/audit.routes';
import {
  createSecurityEvents,
  registerSecurityEventRecording,
  type SecurityEvents,
  securityEventsJob,
} from './modules/audit/security-events';
import { createAuditService } from './modules/audit/audit.service';
import { accountRoutes, securitySettingsRoutes } from './modules/account/account.routes';
import { createAccountService } from './modules/account/account.service';
import { createAdminRepository } from './modules/admin/admin.repository';
import { adminRoutes } from './modules/admin/admin.routes';
import { createAdminService } from './modules/admin/admin.service';
import { createAuthRepository } from './modules/auth/auth.repository';
import { captchaRoutes, sessionRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createPasskeyRepository } from './modules/passkey/passkey.repository';
import { passkeyLoginRoutes, passkeyRoutes } from './modules/passkey/passkey.routes';
import { createPasskeyService } from './modules/passkey/passkey.service';
import { createBookRepository } from './modules/book/book.repository';
import { bookRoutes } from './modules/book/book.routes';
import { createBookService } from './modules/book/book.service';
import { createCommentRepository } from './modules/comment/comment.repository';
import { commentRoutes } from './modules/comment/comment.routes';
import { createCommentService } from './modules/comment/comment.service';
import { exportRoutes } from './modules/export/export.routes';
import { createExportService } from './modules/export/export.service';
import { createInterviewRepository } from './modules/interview/interview.repository';
import { interviewRoutes } from './modules/interview/interview.routes';
import { createInterviewService } from './modules/interview/interview.service';
import { createIssueRepository } from './modules/issue/issue.repository';
import { issueRoutes } from './modules/issue/issue.routes';
import { createIssueService } from './modules/issue/issue.service';
import { createStatsRepository } from './modules/stats/stats.repository';
import { statsRoutes } from './modules/stats/stats.routes';
import { createStatsService } from './modules/stats/stats.service';
import { createTrashRepository } from './modules/trash/trash.repository';
import { trashRoutes } from './modules/trash/trash.routes';
import { createTrashService, trashExpiryJob } from './modules/trash/trash.service';
import { startJobs } from './lib/jobs';
import { AUDIT_ACTIONS } from '#contract/audit';
import { moderationRoutes, moderationSettingsRoutes } from './modules/moderation/moderation.routes';
import { createModerationService } from './modules/moderation/moderation.service';
import { createTypeRepository } from './modules/type/type.repository';
import { typeRoutes } from './modules/type/type.routes';
import { createTypeService } from './modules/type/type.service';
import { createUploadRepository } from './modules/upload/upload.repository';
import { uploadedFileRoutes, uploadRoutes } from './modules/upload/upload.routes';
import { createUploadService } from './modules/upload/upload.service';
import { createUserRepository } from './modules/user/user.repository';
import { userRoutes } from './modules/user/user.routes';
import { createUserService } from './modules/user/user.service';
import { createMemberAuth } from './modules/site/site.auth';
import { createLimits } from './modules/site/site.limits';
import { memberAdminRoutes, siteRoutes } from './modules/site/site.routes';
import { createSiteService } from './modules/site/site.service';
import { createViewCounter, viewFlushJob } from './modules/site/site.views';
import { registerSiteCors } from './plugins/cors';
import { createReviewHub } from './modules/review/review.events';
import { reviewRoutes } from './modules/review/review.routes';
import { createReviewService } from './modules/review/review.service';
import { createNoteService } from './modules/sanction/note.service';
import { memberFileRoutes } from './modules/sanction/sanction.routes';
import { createWebhookService, webhookDeliveryJob, type WebhookService } from './modules/webhook/webhook.service';
import { webhookRoutes } from './modules/webhook/webhook.routes';
import { createSanctionService, sanctionExpiryJob, type SanctionService } from './modules/sanction/sanction.service';

declare module 'fastify' {
  interface FastifyInstance {
    sanctions: SanctionService;
    /** The webhooks' sender: tests run its job's deliveries (deliverDue) on their own clock. */
    webhooks: WebhookService;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Refused calls counted in memory until their next write (tests flush them). */
    securityEvents: SecurityEvents;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  logging?: Logging;
  now?: () => number;
  /**
   * OpenTelemetry (lib/tracing.ts tracingFor), started before the database so that its statements
   * are traced too; shut down (its last spans sent) when the app closes. Null or absent: off.
   */
  tracing?: Tracing | null;
}

/** Builds the whole application on a database that is already migrated. Never listens. */
export async function buildApp({ config, database, logging = silentLogging(), now, tracing = null }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logging.logger,
    logController: logging.logController,
    // One proxy in front: the address it appended is the client's. Anything to its left was written
    // by the client and would let it pick a new address for each guess at the login throttle.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    bodyLimit: 1024 * 1024,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    ...validatorOptions,
    return503OnClosing: true,
    // A close comes after the drain (plugins/drain.ts) has let the calls in flight finish: what is
    // still open then is kept-alive sockets and event streams (审核台 tabs), which must not hold it.
    forceCloseConnections: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  followAnswers(app.server);
  // First, so that every request has its span, those the drain turns away included.
  if (tracing) {
    registerTracing(app, tracing);
    tracing.reportProblemsTo(app.log);
  }

  // Hooks that do not wait for anything are written with `done`: an async one costs every call a
  // promise and a turn of the microtask queue.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });

  // First, so that a call arriving during a stop is turned away before anything touches the database.
  registerDrain(app);
  registerMetrics(app, database, config.metrics);
  registerProbes(app, database);
  // After the drain's onSend hook, which may set Connection: close.
  registerUnreadBody(app);
  registerErrorHandling(app, { reauthWindowMs: config.reauthWindowMs });
  registerSecurityHeaders(app);
  await registerOpenApi(app);
  registerInputNormalisation(app);

  const { db } = database;
  // Names: `audit` records entries (every writing service, in the write's own transaction),
  // `auditLog` reads and reverts them (its routes, the export), `auditRepo` is its repository.
  const audit = createAudit({ now });
  const adminRepo = createAdminRepository(db);
  const authRepo = createAuthRepository(db);
  const auth = createAuthService({
    db,
    audit,
    repo: authRepo,
    admins: adminRepo,
    jwtSecret: config.jwtSecret,
    captchaTestAnswer: config.captchaTestAnswer,
    reauthWindowMs: config.reauthWindowMs,
    now,
  });
  const admins = createAdminService({ db, admins: adminRepo, auth: authRepo, audit, now });
  const passkeys = createPasskeyService({ db, repo: createPasskeyRepository(db), authRepo, admins: adminRepo, auth, audit, now });
  const account = createAccountService({
    db,
    admins: adminRepo,
    repo: authRepo,
    auth,
    audit,
    reauthWindowMs: config.reauthWindowMs,
    provePasskey: (admin, response, client, rp) => passkeys.verifyProof(admin, response, client, rp),
    now,
  });
  const typeRepo = createTypeRepository(db);
  const types = createTypeService({ db, types: typeRepo, audit, now });
  const uploads = createUploadService({ db, uploads: createUploadRepository(db), audit, now });

  const trash = createTrashService({ db, trash: createTrashRepository(db), audit, retentionDays: config.trashRetentionDays, now });
  const userRepo = createUserRepository(db);
  const issueRepo = createIssueRepository(db);
  const commentRepo = createCommentRepository(db);
  const members = createMemberAuth({ db, getKeys: auth.getKeys, now });
  const users = createUserService({
    db,
    users: userRepo,
    issues: issueRepo,
    comments: commentRepo,
    bin: trash,
    audit,
    memberSessions: members,
    now,
  });
  const bookRepo = createBookRepository(db);
  const interviewRepo = createInterviewRepository(db);
  const books = createBookService({ db, books: bookRepo, comments: commentRepo, types: typeRepo, bin: trash, audit, now });
  const interviews = createInterviewService({ db, interviews: interviewRepo, types: typeRepo, bin: trash, audit, now });
  const issues = createIssueService({
    db,
    issues: issueRepo,
    comments: commentRepo,
    users: userRepo,
    types: typeRepo,
    bin: trash,
    audit,
    now,
  });
  const comments = createCommentService({ db, comments: commentRepo, users: userRepo, bin: trash, audit, now });
  const sanctions = createSanctionService({ db, audit, timeZone: config.timeZone, now });
  const notes = createNoteService({ db, audit, now });
  // The member calls (branch wt-site) refuse a sanctioned member through app.sanctions (docs/api.md "Sanctions").
  app.decorate('sanctions', sanctions);
  const review = createReviewService({ db, audit, issues, comments, users, trash, now });
  const reviewHub = createReviewHub({
    database,
    counts: review.counts,
    onError: (error) => app.log.error({ err: error }, 'review events failed'),
  });
  const auditRepo = createAuditRepository(db);
  const securityEvents = createSecurityEvents({
    db,
    now,
    onError: (error) => app.log.error({ err: error }, 'security events not stored'),
  });
  app.decorate('securityEvents', securityEvents);
  registerSecurityEventRecording(app, securityEvents);
  const auditLog = createAuditService({
    repo: auditRepo,
    security: securityEvents,
    reverters: {
      admin: (actor, id, fields, guard) => admins.update(actor, id, fields, guard),
      user: (actor, id, fields, guard) => users.update(actor, id, fields, guard),
      book: (actor, id, fields, guard) => books.update(actor, id, fields, guard),
      interview: (actor, id, fields, guard) => interviews.update(actor, id, fields, guard),
      issue: (actor, id, fields, guard) => issues.update(actor, id, fields, guard),
      type: (actor, id, fields, guard) => types.rename(actor, id, String(fields.typeName), guard),
    },
    actionReverters: {
      [AUDIT_ACTIONS.reviewReject]: review.revertReject,
      [`comment:${AUDIT_ACTIONS.approve}`]: review.revertApprove,
      [`user:${AUDIT_ACTIONS.approve}`]: review.revertApprove,
      [AUDIT_ACTIONS.mute]: sanctions.revertImposed,
      [AUDIT_ACTIONS.suspend]: sanctions.revertImposed,
      [AUDIT_ACTIONS.liftSanction]: sanctions.revertLift,
    },
  });
  const auditRetention = createAuditRetention({
    repo: auditRepo,
    days: config.auditRetentionDays,
    now,
  });
  const exports = createExportService({
    db,
    audit,
    onAuditError: (error) => app.log.error({ err: error }, 'export audit entry not stored'),
    now,
    timeZone: config.timeZone,
    users: userRepo,
    books: bookRepo,
    interviews: interviewRepo,
    issues: issueRepo,
    comments: commentRepo,
    types: typeRepo,
    auditRepo,
    auditLog,
  });
  const stats = createStatsService({ stats: createStatsRepository(db), now });
  const limits = createLimits({ db, limits: config.siteLimits, now });
  const views = createViewCounter({ db, now });
  const site = createSiteService({
    db,
    auth,
    authRepo,
    members,
    limits,
    views,
    userRepo,
    issueRepo,
    commentRepo,
    typeRepo,
    issues,
    books,
    comments,
    interviews,
    types,
    sanctions,
    audit,
    now,
  });
  // A suspension ends the member's sessions in its own transaction.
  sanctions.endSessionsWith((tx, userId) => members.endAllOf([userId], tx));
  // For tests that count views without a listening server: the same flush the job runs.
  app.decorate('siteViews', views);
  const moderation = createModerationService({ db, audit, now });
  const webhooks = createWebhookService({
    db,
    audit,
    keys: auth.getKeys,
    allowPrivate: config.webhooks.allowPrivate,
    retentionDays: config.webhooks.retentionDays,
    now,
  });
  app.decorate('webhooks', webhooks);

  registerAuth(app, auth, members);
  await registerSiteCors(app, config.siteOrigins);
  registerReauth(app);

  await app.register(captchaRoutes, { prefix: '/res', auth });
  await app.register(sessionRoutes, { prefix: '/api/admin', auth, timeZone: config.timeZone });
  await app.register(adminRoutes, { prefix: '/api/admin', admins });
  await app.register(accountRoutes, { prefix: '/api/admin', account, webAuthn: config.webAuthn });
  await app.register(passkeyRoutes, { prefix: '/api/admin/me/passkeys', passkeys, webAuthn: config.webAuthn });
  await app.register(passkeyLoginRoutes, { prefix: '/api/admin/login/passkey', passkeys, webAuthn: config.webAuthn });
  await app.register(securitySettingsRoutes, { prefix: '/api/settings', account });
  await app.register(moderationSettingsRoutes, { prefix: '/api/settings', moderation });
  await app.register(webhookRoutes, { prefix: '/api/settings', webhooks });
  await app.register(moderationRoutes, { prefix: '/api/moderation', moderation });
  await app.register(typeRoutes, { prefix: '/api/type', types });
  await app.register(uploadRoutes, { prefix: '/api/upload', uploads, limits });
  await app.register(userRoutes, { prefix: '/api/user', users });
  await app.register(memberAdminRoutes, { prefix: '/api/user', site, members });
  await app.register(siteRoutes, { prefix: '/api', site });
  await app.register(memberFileRoutes, { prefix: '/api/user', sanctions, notes, fileOf: review.fileOf });
  await app.register(reviewRoutes, { prefix: '/api/review', review, hub: reviewHub, auth });
  await app.register(bookRoutes, { prefix: '/api/book', books });
  await app.register(interviewRoutes, { prefix: '/api/interview', interviews });
  await app.register(issueRoutes, { prefix: '/api/issue', issues });
  await app.register(commentRoutes, { prefix: '/api/comment', comments });
  await app.register(auditRoutes, { prefix: '/api/audit', auditLog });
  await app.register(exportRoutes, { prefix: '/api', exports, now: now ?? Date.now, timeZone: config.timeZone });
  await app.register(trashRoutes, { prefix: '/api/trash', trash });
  await app.register(statsRoutes, { prefix: '/api/stats', stats });
  await app.register(uploadedFileRoutes, { prefix: '/static/uploads', uploads });

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  // The background jobs run while the server listens (an app that only answers injected
  // requests, as in tests and dev:mock, leaves them to the test's clock), all stopped on close.
  let stopJobs: (() => Promise<void>) | null = null;
  app.addHook('onListen', async () => {
    stopJobs ??= startJobs(
      [
        auditRetention.job,
        trashExpiryJob(trash),
        viewFlushJob(views),
        sanctionExpiryJob(sanctions),
        securityEventsJob(securityEvents),
        webhookDeliveryJob(webhooks),
      ],
      (error, job) => app.log.error({ err: error }, `${job.name} failed`),
    );
  });
  // Open event streams would hold the close back: they end first.
  app.addHook('preClose', async () => {
    await reviewHub.close();
  });
  app.addHook('onClose', async () => {
    await stopJobs?.();
    // The views counted since the last flush are written before the database closes.
    await views.flush().catch((error: unknown) => app.log.error({ err: error }, 'views not written on close'));
    await securityEvents.flush();
  });

  await registerWeb(app, config.webRoot);
  return app;
}
