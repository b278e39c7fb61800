import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerAuth } from './plugins/auth';
import { registerDrain } from './plugins/drain';
import { clientErrorHandler, followAnswers, frameworkErrorHandler, registerErrorHandling } from './plugins/errors';
import { registerInputNormalisation } from './plugins/input';
import { silentLogging, type Logging } from './plugins/logging';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { validatorOptions } from './plugins/validation';
import { registerUnreadBody } from './plugins/unread-body';
import { registerWeb } from './plugins/web';
import { createAudit } from './modules/audit/audit';
import { createAuditRepository } from './modules/audit/audit.repository';
import { createAuditRetention } from './modules/audit/audit.retention';
import { auditRoutes } from './modules/audit/audit.routes';
import { createAuditService } from './modules/audit/audit.service';
import { accountRoutes, securitySettingsRoutes } from './modules/account/account.routes';
import { createAccountService } from './modules/account/account.service';
import { createAdminRepository } from './modules/admin/admin.repository';
import { adminRoutes } from './modules/admin/admin.routes';
import { createAdminService } from './modules/admin/admin.service';
import { createAuthRepository } from './modules/auth/auth.repository';
import { captchaRoutes, sessionRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
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

export interface AppOptions {
  config: Config;
  database: Database;
  logging?: Logging;
  now?: () => number;
}

/** Builds the whole application on a database that is already migrated. Never listens. */
export async function buildApp({ config, database, logging = silentLogging(), now }: AppOptions): Promise<FastifyInstance> {
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
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  followAnswers(app.server);

  // Hooks that do not wait for anything are written with `done`: an async one costs every call a
  // promise and a turn of the microtask queue.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });

  // First, so that a call arriving during a stop is turned away before anything touches the database.
  registerDrain(app);
  // After the drain's onSend hook, which may set Connection: close.
  registerUnreadBody(app);
  registerErrorHandling(app);
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
    now,
  });
  const admins = createAdminService({ db, admins: adminRepo, auth: authRepo, audit, now });
  const account = createAccountService({ db, admins: adminRepo, repo: authRepo, auth, audit, now });
  const typeRepo = createTypeRepository(db);
  const types = createTypeService({ db, types: typeRepo, audit, now });
  const uploads = createUploadService({ db, uploads: createUploadRepository(db), audit, now });

  const trash = createTrashService({ db, trash: createTrashRepository(db), audit, retentionDays: config.trashRetentionDays, now });
  const userRepo = createUserRepository(db);
  const issueRepo = createIssueRepository(db);
  const commentRepo = createCommentRepository(db);
  const users = createUserService({ db, users: userRepo, issues: issueRepo, comments: commentRepo, bin: trash, audit, now });
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
  const auditRepo = createAuditRepository(db);
  const auditLog = createAuditService({
    repo: auditRepo,
    reverters: {
      admin: (actor, id, fields, guard) => admins.update(actor, id, fields, guard),
      user: (actor, id, fields, guard) => users.update(actor, id, fields, guard),
      book: (actor, id, fields, guard) => books.update(actor, id, fields, guard),
      interview: (actor, id, fields, guard) => interviews.update(actor, id, fields, guard),
      issue: (actor, id, fields, guard) => issues.update(actor, id, fields, guard),
      type: (actor, id, fields, guard) => types.rename(actor, id, String(fields.typeName), guard),
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
  const moderation = createModerationService({ db, audit, now });

  registerAuth(app, auth);

  await app.register(captchaRoutes, { prefix: '/res', auth });
  await app.register(sessionRoutes, { prefix: '/api/admin', auth, timeZone: config.timeZone });
  await app.register(adminRoutes, { prefix: '/api/admin', admins });
  await app.register(accountRoutes, { prefix: '/api/admin', account });
  await app.register(securitySettingsRoutes, { prefix: '/api/settings', account });
  await app.register(moderationSettingsRoutes, { prefix: '/api/settings', moderation });
  await app.register(moderationRoutes, { prefix: '/api/moderation', moderation });
  await app.register(typeRoutes, { prefix: '/api/type', types });
  await app.register(uploadRoutes, { prefix: '/api/upload', uploads });
  await app.register(userRoutes, { prefix: '/api/user', users });
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
    stopJobs ??= startJobs([auditRetention.job, trashExpiryJob(trash)], (error, job) =>
      app.log.error({ err: error }, `${job.name} failed`),
    );
  });
  app.addHook('onClose', async () => {
    await stopJobs?.();
  });

  await registerWeb(app, config.webRoot);
  return app;
}
