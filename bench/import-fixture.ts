/**
 * Writes a mongoexport folder (Extended JSON, one document per line) of the size real
 * installations reach, to time `npm run import` against:
 *   tsx bench/import-fixture.ts <out dir> [--comments 100000] [--users 2000] [--issues 5000] [--books 500]
 *     [--spam 10] [--database-url postgres://…/db]
 * Comments are a mix of plain text and small HTML, seven in ten on issues; the ids are made the
 * way MongoDB makes them (seconds first), so the data looks like an old installation's.
 * `--spam N`: N in 1,000 comments, questions and nicknames carry a listed word (the import screens
 * them, docs/import.md "Moderation"); `--database-url`: that empty database is migrated and given a
 * word list of 10,000 words (bench/moderation.ts's kind) with those few that hit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/src/db/client';
import { foldWord } from '../server/src/modules/moderation/fold';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    comments: { type: 'string', default: '100000' },
    users: { type: 'string', default: '2000' },
    issues: { type: 'string', default: '5000' },
    books: { type: 'string', default: '500' },
    spam: { type: 'string', default: '0' },
    'database-url': { type: 'string' },
  },
});
const out = positionals[0];
if (!out) throw new Error('用法：tsx bench/import-fixture.ts <输出文件夹> [--comments N] [--users N] [--issues N] [--books N]');
const sizes = {
  comments: Number(values.comments),
  users: Number(values.users),
  issues: Number(values.issues),
  books: Number(values.books),
};
const spamPerMille = Number(values.spam);
// Which record carries which listed word: spread evenly, one action in three.
const SPAM = [
  { word: '加微信领优惠', action: 'reject' },
  { word: '兼职刷单', action: 'hold' },
  { word: '代写作业', action: 'flag' },
] as const;
const spamOf = (i: number) => (spamPerMille > 0 && i % Math.round(1000 / spamPerMille) === 7 ? SPAM[i % 3].word : '');
fs.mkdirSync(out, { recursive: true });

const START = Date.UTC(2022, 0, 1);
let counter = 0;
const oid = (ms: number) => ({
  $oid: `${Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, '0')}be7c0ffee0${(counter++).toString(16).padStart(6, '0')}`,
});
const write = (name: string, docs: Iterable<object>) => {
  const fd = fs.openSync(path.join(out, `${name}.json`), 'w');
  let chunk = '';
  for (const doc of docs) {
    chunk += `${JSON.stringify(doc)}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(fd, chunk);
      chunk = '';
    }
  }
  fs.writeSync(fd, chunk);
  fs.closeSync(fd);
};

const typeIds = ['HTML', 'CSS', 'JS', 'Vue', 'React', 'Node.js', '数据库'].map((typeName, i) => ({ _id: oid(START + i), typeName }));
write('types', typeIds);
write('admins', [
  {
    _id: oid(START),
    loginId: 'bench_admin',
    loginPwd: 'e10adc3949ba59abbe56e057f20f883e',
    nickname: '压测',
    avatar: '',
    permission: { $numberInt: '1' },
    enabled: true,
  },
]);
const userIds = Array.from({ length: sizes.users }, (_, i) => oid(START + i * 1000));
write(
  'users',
  userIds.map((_id, i) => ({
    _id,
    loginId: `bench_user_${i}`,
    loginPwd: 'e10adc3949ba59abbe56e057f20f883e',
    avatar: '',
    nickname: `用户${i}${spamOf(i)}`,
    mail: '',
    qq: '',
    wechat: '',
    intro: '',
    registerDate: String(START + i * 1000),
    lastLoginDate: String(START + i * 1000),
    points: { $numberInt: '100' },
    enabled: true,
  })),
);
const bookIds = Array.from({ length: sizes.books }, (_, i) => oid(START + 1e9 + i));
// A comment's typeId is its target's, as the old server copied it.
const typeOf = (i: number) => typeIds[i % typeIds.length]._id;
write(
  'books',
  bookIds.map((_id, i) => ({
    _id,
    bookTitle: `书 ${i}`,
    bookPic: '',
    downloadLink: `https://pan.baidu.com/s/${i}`,
    bookIntro: `<p>第 ${i} 本书的介绍。</p>`,
    scanNumber: { $numberInt: '0' },
    commentNumber: { $numberInt: '0' },
    onShelfDate: String(START + 1e9 + i),
    requirePoints: { $numberInt: '20' },
    typeId: typeIds[i % typeIds.length]._id,
  })),
);
write('interviews', []);
const issueIds = Array.from({ length: sizes.issues }, (_, i) => oid(START + 2e9 + i));
write(
  'issues',
  issueIds.map((_id, i) => ({
    _id,
    issueTitle: `问题 ${i}`,
    issueContent: `<p>问题 ${i} 的描述，<strong>很急</strong>。${spamOf(i)}</p>`,
    scanNumber: { $numberInt: '0' },
    commentNumber: { $numberInt: '0' },
    issueStatus: i % 3 !== 0,
    issueDate: String(START + 2e9 + i),
    userId: userIds[i % userIds.length],
    typeId: typeIds[i % typeIds.length]._id,
  })),
);
function* comments() {
  for (let i = 0; i < sizes.comments; i++) {
    const onIssue = i % 10 < 7;
    const index = onIssue ? (i * 7919) % issueIds.length : (i * 104729) % bookIds.length;
    const parent = onIssue ? issueIds[index] : bookIds[index];
    yield {
      _id: oid(START + 3e9 + i * 1000),
      userId: userIds[(i * 31) % userIds.length],
      issueId: onIssue ? parent : null,
      bookId: onIssue ? null : parent,
      typeId: typeOf(index),
      commentContent:
        i % 4 === 0 ? `<p>第 ${i} 条评论：<code>SELECT 1</code> 也可以。${spamOf(i)}</p>` : `第 ${i} 条评论，谢谢分享！${spamOf(i)}`,
      commentDate: { $date: { $numberLong: String(START + 3e9 + i * 1000) } },
      commentType: { $numberInt: onIssue ? '1' : '2' },
    };
  }
}
write('comments', comments());
console.log(`已写入 ${out}：${JSON.stringify({ ...sizes, spamPerMille })}`);

async function loadWords(url: string) {
  // 10,000 random words of 2-4 Chinese characters or 3-8 Latin letters (none of them in the
  // fixture's texts but by chance), and the three that hit.
  let seed = 12345;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 2 ** 31;
  };
  const HAN =
    '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经';
  const words = new Map<string, { word: string; action: string }>(SPAM.map((s) => [foldWord(s.word), { ...s }]));
  while (words.size < 10_000 + SPAM.length) {
    const word =
      random() < 0.6
        ? Array.from({ length: 2 + Math.floor(random() * 3) }, () => HAN[Math.floor(random() * HAN.length)]).join('')
        : Array.from({ length: 3 + Math.floor(random() * 6) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
    if (!words.has(foldWord(word))) words.set(foldWord(word), { word, action: ['reject', 'hold', 'flag'][words.size % 3] });
  }
  const database = await openDatabase({ kind: 'postgres', url });
  try {
    await database.migrate();
    const rows = [...words].map(([folded, w], i) => ({ id: (0x10000000 + i).toString(16).padStart(24, '0'), folded, ...w }));
    await database.db.execute(sql`insert into moderation_words (id, word, folded, action, created_by, created_at)
      select id, word, folded, action, '000000000000000000000000', 0 from json_to_recordset(${JSON.stringify(rows)}::json)
        as w(id varchar, word text, folded text, action varchar)`);
    console.log(`${url}：已建表并写入 ${rows.length} 个敏感词`);
  } finally {
    await database.close();
  }
}
if (values['database-url']) void loadWords(values['database-url']);
