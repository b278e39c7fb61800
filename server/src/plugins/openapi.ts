import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The OpenAPI document at /api/docs/json and its UI at /api/docs, built from the route schemas. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'coder station 后台管理 API',
        description: '所有 JSON 应答都是 { success, code, msg, data } 信封；错误使用真实的 HTTP 状态码。',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The UI's own policy lets any page of this origin frame it, and set a <base>; it needs neither.
    transformStaticCSP: (header) =>
      header.replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'").replace(/base-uri [^;]*/, "base-uri 'none'"),
  });
}
