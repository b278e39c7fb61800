import { Alert, Button, Descriptions, Modal, Typography } from 'antd';

interface InitialPasswordModalProps {
  /** The account the password belongs to; the modal is open while it is set. */
  account?: string;
  password?: string;
  onClose: () => void;
}

/** Shows a password the server generated. It is never shown again, so closing needs a click. */
export default function InitialPasswordModal({ account, password, onClose }: InitialPasswordModalProps) {
  return (
    <Modal
      open={Boolean(account && password)}
      title="请保存初始密码"
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存
        </Button>
      }
    >
      <Alert type="warning" showIcon message="初始密码只显示这一次，关闭后无法再次查看，请复制后转交本人。" />
      <Descriptions column={1} style={{ marginTop: 16 }}>
        <Descriptions.Item label="账号">{account}</Descriptions.Item>
        <Descriptions.Item label="初始密码">
          <Typography.Text code copyable={{ text: password, tooltips: ['复制密码', '已复制'] }}>
            {password}
          </Typography.Text>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
