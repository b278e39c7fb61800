import type { PresenceEvent, ReviewItem, ReviewItemRef, ReviewKind, ReviewReasonEntry } from '#contract/review';
import { PRESENCE_REPEAT_MS, PRESENCE_TTL_MS } from '#contract/review';
import { REVIEW_KIND_LABELS } from '#contract/values/review';
import { PageContainer } from '@ant-design/pro-components';
import { useModel } from '@umijs/max';
import { Button, Empty, Input, type InputRef, Modal, Segmented, Space, Tag } from 'antd';
import DOMPurify from 'dompurify';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { revertAudit } from '@/services/audit';
import { alreadyShown } from '@/services/api';
import { announcePresence, decide, listReasons, listReview, subscribeReview } from '@/services/review';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';
import AuthorFileCard from './AuthorFileCard';
import { chosenCount, decisionTargets, KEY_HELP, moved, queueCommand, REJECT_HELP, reasonByDigit } from './keys';
import { reasonText } from './reasons';
import styles from './index.less';

const PAGE_SIZE = 20;
const keyOf = (item: ReviewItemRef) => `${item.kind}:${item.id}`;

/** The sanitised content with each matched word marked (<mark>), for the rule's reason to be seen. */
function Highlighted({ html, words }: { html: string; words: string[] }) {
  const marked = useMemo(() => {
    const clean = DOMPurify.sanitize(html);
    const wanted = words.filter(Boolean);
    if (!wanted.length) return clean;
    const doc = new DOMParser().parseFromString(`<div>${clean}</div>`, 'text/html');
    const pattern = new RegExp(`(${wanted.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
    const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    while (walker.nextNode()) texts.push(walker.currentNode as Text);
    for (const text of texts) {
      const parts = (text.nodeValue ?? '').split(pattern);
      if (parts.length < 2) continue;
      const fragment = doc.createDocumentFragment();
      parts.forEach((part, i) => {
        if (i % 2) {
          const mark = doc.createElement('mark');
          mark.textContent = part;
          fragment.append(mark);
        } else if (part) fragment.append(doc.createTextNode(part));
      });
      text.replaceWith(fragment);
    }
    return doc.body.firstElementChild?.innerHTML ?? clean;
  }, [html, words]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify above (and by the server); only <mark> is added.
  return <div className={styles.content} dangerouslySetInnerHTML={{ __html: marked }} />;
}

export default function Review() {
  const { initialState } = useModel('@@initialState');
  const me = initialState?.adminInfo?._id;
  const [kind, setKind] = useState<ReviewKind | ''>('');
  const [items, setItems] = useState<ReviewItem[]>([]);
  const [count, setCount] = useState(0);
  const [loading, setLoading] = useState(true);
  const [index, setIndex] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [skipped, setSkipped] = useState<Set<string>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const [presence, setPresence] = useState<Map<string, PresenceEvent & { at: number }>>(new Map());
  const [reasons, setReasons] = useState<ReviewReasonEntry[]>([]);
  const [rejecting, setRejecting] = useState(false);
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState<ReviewItem | null>(null);
  const [help, setHelp] = useState(false);
  const undo = useRef<string[][]>([]);
  const listRef = useRef<HTMLDivElement>(null);
  const busy = useRef(false);
  const reasonInput = useRef<InputRef>(null);

  const visible = useMemo(() => items.filter((item) => !skipped.has(keyOf(item))), [items, skipped]);
  const current = visible[Math.min(index, Math.max(visible.length - 1, 0))];
  // What a decision on the selection reaches, as its buttons say (keys.ts chosenCount).
  const chosen = useMemo(() => chosenCount(visible, selected), [visible, selected]);

  // Each load and each decision takes a number: a load answers only if nothing came after it, so
  // that a reload started before a decision cannot bring the decided items back.
  const loads = useRef(0);
  const load = useCallback(async () => {
    const mine = ++loads.current;
    try {
      const page = await listReview({ current: 1, pageSize: PAGE_SIZE, kind });
      if (mine !== loads.current) return;
      setItems(page.data);
      setCount(page.count);
    } catch (error) {
      alreadyShown(error);
    } finally {
      setLoading(false);
    }
  }, [kind]);

  useEffect(() => {
    setLoading(true);
    void load();
  }, [load]);

  useEffect(() => {
    listReasons().then(setReasons, alreadyShown);
  }, []);

  // Live: the queue follows others' decisions and new items; presence shows who looks at what.
  useEffect(
    () =>
      subscribeReview((event) => {
        if (event.type === 'change') void load();
        if (event.type === 'presence' && event.data.adminId !== me) {
          setPresence((before) => {
            const next = new Map(before);
            if (event.data.open) next.set(keyOf(event.data), { ...event.data, at: Date.now() });
            else next.delete(keyOf(event.data));
            return next;
          });
        }
      }),
    [load, me],
  );

  // This admin's presence on the item with the focus, said again while it stays there.
  const currentKey = current ? keyOf(current) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the item, not the object of each reload.
  useEffect(() => {
    if (!current) return;
    const ref = { kind: current.kind, id: current.id };
    void announcePresence(ref, true);
    const again = setInterval(() => void announcePresence(ref, true), PRESENCE_REPEAT_MS);
    return () => {
      clearInterval(again);
      void announcePresence(ref, false);
    };
  }, [currentKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: announced when the focus moves, not on each reload.
  useEffect(() => {
    if (!current) return;
    const place = visible.indexOf(current) + 1;
    setAnnouncement(
      `第 ${place} 项，共 ${visible.length} 项：${REVIEW_KIND_LABELS[current.kind]}${current.title ? `「${current.title}」` : ''}`,
    );
    document.getElementById(`review-${currentKey}`)?.scrollIntoView({ block: 'nearest' });
  }, [currentKey]);

  const run = async (decision: 'approve' | 'reject', reason?: string) => {
    // The focus stays on the last item when the list shortens under it.
    const targets = decisionTargets(visible, selected, Math.min(index, visible.length - 1)).map(({ kind: k, id }) => ({ kind: k, id }));
    if (!targets.length || busy.current) return;
    busy.current = true;
    try {
      const result = await decide(targets, decision, reason);
      undo.current.push(result.auditIds);
      const text = `已${decision === 'approve' ? '通过' : '拒绝'} ${result.done} 项`;
      message.success(text);
      setAnnouncement(text);
      setSelected(new Set());
      // The decided items leave the queue at once, so that the next key acts on what is left
      // rather than waiting for (or being lost during) the reload, which brings others' changes.
      const decided = new Set(targets.map(keyOf));
      loads.current++;
      setItems((before) => before.filter((item) => !decided.has(keyOf(item))));
      setCount((before) => Math.max(0, before - result.done));
    } catch (error) {
      // A 409 says who decided what first; the keys wait until the list shows what is left.
      alreadyShown(error);
      await load();
      return;
    } finally {
      busy.current = false;
      listRef.current?.focus();
    }
    await load();
  };

  const undoLast = async () => {
    const last = undo.current.pop();
    if (!last) {
      setAnnouncement('没有可撤销的处理');
      return;
    }
    try {
      for (const id of [...last].reverse()) await revertAudit(id);
      setAnnouncement(`已撤销 ${last.length} 项`);
      message.success(`已撤销 ${last.length} 项`);
      await load();
    } catch (error) {
      alreadyShown(error);
    }
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (rejecting || open || help) return;
    const command = queueCommand(event);
    if (!command) return;
    event.preventDefault();
    if (command === 'next' || command === 'previous') setIndex((i) => moved(Math.min(i, visible.length - 1), command, visible.length));
    else if (command === 'approve') void run('approve');
    else if (command === 'reject' && current) {
      setTyped('');
      setRejecting(true);
    } else if (command === 'skip' && current) {
      setSkipped((before) => new Set(before).add(keyOf(current)));
      // A skipped item is out of the selection too: a decision on the selection leaves it alone.
      setSelected((before) => {
        if (!before.has(keyOf(current))) return before;
        const next = new Set(before);
        next.delete(keyOf(current));
        return next;
      });
      setAnnouncement('已跳过');
    } else if (command === 'undo') void undoLast();
    else if (command === 'open' && current) setOpen(current);
    else if (command === 'select' && current) {
      const key = keyOf(current);
      setSelected((before) => {
        const next = new Set(before);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        setAnnouncement(`${next.has(key) ? '已选中' : '已取消选中'}，共选中 ${next.size} 项`);
        return next;
      });
    } else if (command === 'help') setHelp(true);
  };

  const rejectWith = (reason: string) => {
    setRejecting(false);
    void run('reject', reason);
  };

  const now = Date.now();
  const lookers = (item: ReviewItem) =>
    [...presence.values()].filter((p) => keyOf(p) === keyOf(item) && now - p.at < PRESENCE_TTL_MS).map((p) => p.loginId);

  return (
    <PageContainer title="审核台" content="按 ? 查看快捷键。j/k 移动，a 通过，r 拒绝，s 跳过，u 撤销，o 查看，x 选中。">
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented
          aria-label="类型"
          value={kind}
          onChange={(value) => {
            setKind(value as ReviewKind | '');
            setIndex(0);
          }}
          options={[
            { label: '全部', value: '' },
            { label: '问答', value: 'issue' },
            { label: '评论', value: 'comment' },
            { label: '用户', value: 'user' },
          ]}
        />
        <span>{`待审 ${count} 项`}</span>
        <Button onClick={() => void run('approve')} disabled={!visible.length}>
          {chosen ? `通过选中的 ${chosen} 项` : '通过'}
        </Button>
        <Button danger onClick={() => current && setRejecting(true)} disabled={!visible.length}>
          {chosen ? `拒绝选中的 ${chosen} 项` : '拒绝'}
        </Button>
        <Button onClick={() => void undoLast()}>撤销</Button>
        <Button onClick={() => setHelp(true)}>快捷键</Button>
      </Space>
      <div aria-live="polite" role="status" className={styles.srOnly}>
        {announcement}
      </div>
      {!loading && !visible.length ? (
        <Empty description="队列已清空" />
      ) : (
        <div
          ref={listRef}
          role="listbox"
          tabIndex={0}
          aria-label="审核队列"
          aria-multiselectable="true"
          aria-activedescendant={current ? `review-${keyOf(current)}` : undefined}
          onKeyDown={onKeyDown}
          className={styles.queue}
        >
          {visible.map((item, i) => {
            const key = keyOf(item);
            const others = lookers(item);
            return (
              <div
                key={key}
                id={`review-${key}`}
                role="option"
                tabIndex={-1}
                aria-selected={selected.has(key)}
                aria-current={item === current ? 'true' : undefined}
                className={`${styles.item} ${item === current ? styles.current : ''} ${selected.has(key) ? styles.selected : ''}`}
                onClick={() => setIndex(i)}
                onKeyDown={undefined}
              >
                <Space wrap size={4}>
                  <Tag>{REVIEW_KIND_LABELS[item.kind]}</Tag>
                  {item.title && <strong>{item.title}</strong>}
                  <span>{`发布于 ${formatDate(item.postedAt)}`}</span>
                  {item.where.title && item.kind === 'comment' && <span>{`位于「${item.where.title}」`}</span>}
                  {others.length > 0 && <Tag color="orange">{`${others.join('、')} 正在查看`}</Tag>}
                </Space>
                <div className={styles.reason}>{reasonText(item)}</div>
                <Highlighted html={item.content} words={item.reasons.flatMap((r) => r.words)} />
                <AuthorFileCard file={item.author} />
              </div>
            );
          })}
        </div>
      )}
      <Modal
        open={rejecting}
        title="拒绝理由"
        okText="拒绝"
        cancelText="取消"
        onCancel={() => {
          setRejecting(false);
          listRef.current?.focus();
        }}
        onOk={() => rejectWith(typed.trim())}
        // The reason box has the focus once the dialog has opened, so that a digit or Enter is heard there.
        afterOpenChange={(opened) => opened && reasonInput.current?.focus()}
        destroyOnClose
      >
        <p>{REJECT_HELP}</p>
        <ol>
          {reasons.slice(0, 9).map((reason, i) => (
            <li key={reason._id}>
              <Button type="link" onClick={() => rejectWith(reason.text)}>{`${i + 1}. ${reason.text}`}</Button>
            </li>
          ))}
        </ol>
        <Input
          ref={reasonInput}
          aria-label="拒绝理由"
          placeholder="输入理由"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            const picked = typed ? null : reasonByDigit(e.key, reasons);
            if (picked) {
              e.preventDefault();
              rejectWith(picked.text);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              rejectWith(typed.trim());
            }
          }}
        />
      </Modal>
      <Modal
        open={open !== null}
        title={open ? `${REVIEW_KIND_LABELS[open.kind]}${open.title ? `「${open.title}」` : ''}` : ''}
        footer={null}
        onCancel={() => {
          setOpen(null);
          listRef.current?.focus();
        }}
        width={720}
      >
        {open && (
          <>
            <div className={styles.reason}>{reasonText(open)}</div>
            <Highlighted html={open.content} words={open.reasons.flatMap((r) => r.words)} />
            <AuthorFileCard file={open.author} />
          </>
        )}
      </Modal>
      <Modal
        open={help}
        title="快捷键"
        footer={null}
        onCancel={() => {
          setHelp(false);
          listRef.current?.focus();
        }}
      >
        <dl className={styles.keys}>
          {KEY_HELP.map(([keys, what]) => (
            <div key={keys}>
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <p>{REJECT_HELP}</p>
      </Modal>
    </PageContainer>
  );
}
