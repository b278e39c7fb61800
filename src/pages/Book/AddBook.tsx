import PagePlaceholder from '@/components/PagePlaceholder';

export default function AddBook() {
  return <PagePlaceholder title="添加书籍" />;
}
