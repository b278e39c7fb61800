import { QRCode } from 'antd';

/**
 * antd's own QR code (already a dependency, no new package): loaded through React.lazy by the
 * two-step tab only, so that neither /login nor the lists carry it.
 */
export default function QrCode({ value }: { value: string }) {
  return <QRCode value={value} type="svg" size={180} bordered={false} aria-label="两步验证二维码" />;
}
