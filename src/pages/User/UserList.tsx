import PagePlaceholder from '@/components/PagePlaceholder';

export default function UserList() {
  return <PagePlaceholder title="用户列表" />;
}
