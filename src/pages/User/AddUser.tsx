import PagePlaceholder from '@/components/PagePlaceholder';

export default function AddUser() {
  return <PagePlaceholder title="添加用户" />;
}
