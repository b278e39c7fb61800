/** Type calls for `npm run dev:mock`, following CONTRACT.md (read and write: NormalAdmin). */
import { defineMock } from '@umijs/max';
import { bodyOf, db, fail, objectId, ok, requireAdmin, text } from './lib/store';

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
    const usage = db.typeUsage.get(type.typeName);
    if (usage) {
      db.typeUsage.delete(type.typeName);
      db.typeUsage.set(typeName, usage);
    }
    type.typeName = typeName;
    return ok(res, type);
  },

  'DELETE /api/type/:id': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    const index = db.types.findIndex((t) => t._id === req.params.id);
    if (index < 0) return fail(res, 404, '类型不存在');
    const usage = db.typeUsage.get(db.types[index].typeName);
    if (usage) {
      const { books, interviews, issues, comments } = usage;
      return fail(
        res,
        409,
        `该分类下还有内容，无法删除（书籍 ${books} 本，面试题 ${interviews} 道，问答 ${issues} 个，评论 ${comments} 条）`,
      );
    }
    db.types.splice(index, 1);
    return ok(res, null);
  },
});
