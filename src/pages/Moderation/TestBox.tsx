import { Alert, Button, Card, Input, Space } from 'antd';
import { useState } from 'react';
import { testText } from '@/services/moderation';
import type { ModerationTestResult } from '#contract/moderation';
import { MODERATION_TEST_MAX_LENGTH } from '#contract/values/moderation';
import { ACTION_LABELS, ActionTag, reasonText, splitBySpans, verdictText } from './labels';

// antd's own <mark> is a pale yellow that vanishes on the 待审 alert's background.
const MARK_STYLE = { backgroundColor: '#ffd666', padding: '0 2px', borderRadius: 2 };

const ALERT_TYPE = { pass: 'success', reject: 'error', hold: 'warning', flag: 'info' } as const;

/** 测试: which rules fire on a text, the matched stretches marked. Writes nothing (POST /api/moderation/test). */
export default function TestBox() {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [tested, setTested] = useState<{ text: string; result: ModerationTestResult } | null>(null);

  const run = async () => {
    setBusy(true);
    try {
      setTested({ text, result: await testText(text) });
    } catch {
      // The request layer has shown why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="测试" style={{ marginTop: 16 }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <label htmlFor="moderation-test-text">输入一段文字，查看哪些规则会触发（不会保存）</label>
        <Input.TextArea
          id="moderation-test-text"
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={MODERATION_TEST_MAX_LENGTH}
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder="要测试的文字"
        />
        {/* The spinner only for a test that takes a while: a quick answer (most are) shows none, and
            antd's spinner shown and hidden within a frame lingers, leaving the button named 「loading 测试」. */}
        <Button type="primary" loading={busy && { delay: 300 }} disabled={!text.trim()} onClick={run}>
          测试
        </Button>
        {tested ? (
          <Alert
            role="status"
            type={ALERT_TYPE[tested.result.action]}
            message={verdictText(tested.result)}
            description={
              tested.result.reasons.length ? (
                <>
                  <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                    {tested.result.reasons.map((reason) => (
                      <li key={`${reason.rule}-${reason.action}`}>{reasonText(reason)}</li>
                    ))}
                  </ul>
                  {tested.result.spans.length ? (
                    <p
                      data-testid="moderation-test-marked"
                      style={{ marginTop: 8, marginBottom: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                    >
                      {splitBySpans(tested.text, tested.result.spans).map((piece, index) =>
                        piece.match ? (
                          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces are the text's stretches in order.
                          <mark key={index} style={MARK_STYLE} title={`${piece.match.word}（${ACTION_LABELS[piece.match.action]}）`}>
                            {piece.text}
                          </mark>
                        ) : (
                          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
                          <span key={index}>{piece.text}</span>
                        ),
                      )}
                    </p>
                  ) : null}
                </>
              ) : undefined
            }
            action={tested.result.action === 'pass' ? undefined : <ActionTag action={tested.result.action} />}
          />
        ) : null}
      </Space>
    </Card>
  );
}
