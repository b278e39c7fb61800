import PagePlaceholder from '@/components/PagePlaceholder';

export default function EditBook() {
  return <PagePlaceholder title="编辑书籍信息" />;
}
