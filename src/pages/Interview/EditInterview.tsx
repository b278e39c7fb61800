import PagePlaceholder from '@/components/PagePlaceholder';

export default function EditInterview() {
  return <PagePlaceholder title="编辑题目" />;
}
