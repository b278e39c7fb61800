/** Type calls for `npm run dev:mock`, following docs/api.md (read and write: NormalAdmin). */
import { defineMock } from '@umijs/max';
import { typeUsage } from './lib/content';
import { bodyOf, db, fail, objectId, ok, requireAdmin, text } from './lib/store';

/** The server's wording: only what is there, e.g. 「面试题 1 道，评论 2 条」. */
function describeUsage(usage: ReturnType<typeof typeUsage>): string {
  return [
    usage.books && `书籍 ${usage.books} 本`,
    usage.interviews && `面试题 ${usage.interviews} 道`,
    usage.issues && `问答 ${usage.issues} 个`,
    usage.comments && `评论 ${usage.comments} 条`,
  ]
    .filter(Boolean)
    .join('，');
}

function nameTaken(typeName: string, exceptId?: string): boolean {
  return db.types.some((t) => t.typeName === typeName && t._id !== exceptId);
}

export default defineMock({
  'GET /api/type': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    return ok(res, [...db.types].sort((a, b) => a.createdAt - b.createdAt));
  },

  'POST /api/type': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    const typeName = text(bodyOf(req).typeName);
    if (!typeName) return fail(res, 400, 'typeName 不能为空');
    if (nameTaken(typeName)) return fail(res, 409, '该类型已存在');
    const createdAt = Date.now();
    const type = { _id: objectId(createdAt), typeName, createdAt };
    db.types.push(type);
    return ok(res, type, 201);
  },

  'PATCH /api/type/:id': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    const type = db.types.find((t) => t._id === req.params.id);
    if (!type) return fail(res, 404, '类型不存在');
    const typeName = text(bodyOf(req).typeName);
    if (!typeName) return fail(res, 400, 'typeName 不能为空');
    if (nameTaken(typeName, type._id)) return fail(res, 409, '该类型已存在');
    type.typeName = typeName;
    return ok(res, type);
  },

  'DELETE /api/type/:id': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    const index = db.types.findIndex((t) => t._id === req.params.id);
    if (index < 0) return fail(res, 404, '类型不存在');
    const inUse = describeUsage(typeUsage(db.types[index]._id));
    if (inUse) return fail(res, 409, `该分类下还有内容，无法删除（${inUse}）`);
    db.types.splice(index, 1);
    return ok(res, null);
  },
});
