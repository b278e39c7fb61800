import PagePlaceholder from '@/components/PagePlaceholder';

export default function EditUser() {
  return <PagePlaceholder title="编辑用户" />;
}
