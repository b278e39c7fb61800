export const TYPE_MESSAGES = {
  notFound: '类型不存在',
  /** A book, interview question or issue naming a typeId that does not exist. */
  unknown: '分类不存在',
  duplicate: '该类型已存在',
  /** Followed by the counts of what still uses the type. */
  inUse: '该分类下还有内容，无法删除',
} as const;
