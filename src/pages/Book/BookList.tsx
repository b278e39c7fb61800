import PagePlaceholder from '@/components/PagePlaceholder';

export default function BookList() {
  return <PagePlaceholder title="书籍列表" />;
}
