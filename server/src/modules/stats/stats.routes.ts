import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Stats } from '#contract/stats';
import { ok, responses } from '../../lib/http';
import type { StatsService } from './stats.service';

export const statsRoutes: FastifyPluginAsyncTypebox<{ stats: StatsService }> = async (app, { stats }) => {
  app.get(
    '/',
    {
      config: { access: 'admin' },
      schema: {
        summary: '首页统计：各项总数和最近 30 天每天的新用户、新问答、新评论',
        response: responses(Stats),
      },
    },
    async () => ok(await stats.get()),
  );
};
