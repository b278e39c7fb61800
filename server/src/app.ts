import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from './config';
import type { Database } from './db/client';
import { registerAuth } from './plugins/auth';
import { registerDrain } from './plugins/drain';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './plugins/errors';
import { registerInputNormalisation } from './plugins/input';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { validatorOptions } from './plugins/validation';
import { registerWeb } from './plugins/web';
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
import { createInterviewRepository } from './modules/interview/interview.repository';
import { interviewRoutes } from './modules/interview/interview.routes';
import { createInterviewService } from './modules/interview/interview.service';
import { createIssueRepository } from './modules/issue/issue.repository';
import { issueRoutes } from './modules/issue/issue.routes';
import { createIssueService } from './modules/issue/issue.service';
import { createStatsRepository } from './modules/stats/stats.repository';
import { statsRoutes } from './modules/stats/stats.routes';
import { createStatsService } from './modules/stats/stats.service';
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
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
}

/** One log line per request, when it is answered (with its method and URL), instead of two. */
class OneLinePerRequest extends LogController {
  incomingRequest() {}

  requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Standard output, written in the background in blocks of at least 4 KB: under load the lines of
 * many requests go out in one write instead of one write each (a write per request was ~7 % of
 * the server's CPU). A quiet server still shows its lines within a second; pino writes what is
 * left when the process exits, so only a kill -9 can lose the last second of log.
 */
function logDestination() {
  const destination = pino.destination({ sync: false, minLength: 4096 });
  setInterval(() => {
    // flush() throws while the destination is still opening or once it is closed.
    try {
      destination.flush();
    } catch {}
  }, 1000).unref();
  return destination;
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    stream: logDestination(),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
}

/** Builds the whole application on a database that is already migrated. Never listens. */
export async function buildApp({ config, database, logger = false, now }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    logController: new OneLinePerRequest(),
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

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  // First, so that a call arriving during a stop is turned away before anything touches the database.
  registerDrain(app);
  registerErrorHandling(app);
  registerSecurityHeaders(app);
  await registerOpenApi(app);
  await app.register(cookie);
  await app.register(multipart);
  registerInputNormalisation(app);

  const { db } = database;
  const adminRepo = createAdminRepository(db);
  const authRepo = createAuthRepository(db);
  const auth = createAuthService({
    repo: authRepo,
    admins: adminRepo,
    jwtSecret: config.jwtSecret,
    captchaTestAnswer: config.captchaTestAnswer,
    now,
  });
  const admins = createAdminService({ db, admins: adminRepo, auth: authRepo, now });
  const typeRepo = createTypeRepository(db);
  const types = createTypeService({ db, types: typeRepo, now });
  const uploads = createUploadService({ uploads: createUploadRepository(db), now });

  const userRepo = createUserRepository(db);
  const issueRepo = createIssueRepository(db);
  const commentRepo = createCommentRepository(db);
  const users = createUserService({ db, users: userRepo, issues: issueRepo, comments: commentRepo, now });
  const books = createBookService({ db, books: createBookRepository(db), comments: commentRepo, types: typeRepo, now });
  const interviews = createInterviewService({ db, interviews: createInterviewRepository(db), types: typeRepo, now });
  const issues = createIssueService({ db, issues: issueRepo, comments: commentRepo, users: userRepo, types: typeRepo, now });
  const comments = createCommentService({ db, comments: commentRepo, users: userRepo, now });
  const stats = createStatsService({ stats: createStatsRepository(db), now });

  registerAuth(app, auth);

  await app.register(captchaRoutes, { prefix: '/res', auth });
  await app.register(sessionRoutes, { prefix: '/api/admin', auth });
  await app.register(adminRoutes, { prefix: '/api/admin', admins });
  await app.register(typeRoutes, { prefix: '/api/type', types });
  await app.register(uploadRoutes, { prefix: '/api/upload', uploads });
  await app.register(userRoutes, { prefix: '/api/user', users });
  await app.register(bookRoutes, { prefix: '/api/book', books });
  await app.register(interviewRoutes, { prefix: '/api/interview', interviews });
  await app.register(issueRoutes, { prefix: '/api/issue', issues });
  await app.register(commentRoutes, { prefix: '/api/comment', comments });
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

  await registerWeb(app, config.webRoot);
  return app;
}
