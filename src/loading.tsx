import { Spin } from 'antd';

/** Shown while the app, the session or a lazily loaded page loads. */
export default function Loading() {
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: 240,
        height: '100%',
      }}
    >
      <Spin size="large" tip="努力加载中...">
        <div style={{ padding: 48 }} />
      </Spin>
    </div>
  );
}
